.PHONY: proto

# Regenerate the gRPC/protobuf stubs under proto/ambit/v1/ (committed; tests/proto/test_proto.py checks them).
proto:
	.venv/bin/python -m proto.build
