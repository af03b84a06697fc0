.PHONY: proto

# Regenerate the gRPC/protobuf stubs under src/ambit/proto/v1/ (committed; tests/proto/test_proto.py checks them).
proto:
	.venv/bin/python -m ambit.proto.build
