"""ambit.v1 stubs: `from proto.ambit.v1 import ambit_pb2, ambit_pb2_grpc`. Regenerate: `python -m proto.build`."""
