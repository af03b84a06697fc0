"""ambit.v1 stubs: `from ambit.proto.v1 import ambit_pb2, ambit_pb2_grpc`. Regenerate: `python -m ambit.proto.build`."""
