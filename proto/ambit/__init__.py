"""ambit protocol buffers (package ambit)."""
