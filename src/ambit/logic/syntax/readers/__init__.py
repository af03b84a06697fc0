"""Hand-written readers that stand in front of the Lark grammars for the common input of a
dialect (tptp_read.py: TPTP FOF). Each accepts only what it surely reads, building the tree the
grammar's transformer builds, and raises `Reject` on anything else, so that Lark reads it and
gives the error with its position and expectations."""
