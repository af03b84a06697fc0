"""ambit protocol buffers: sources under ambit/v1/, generated stubs next to them."""
