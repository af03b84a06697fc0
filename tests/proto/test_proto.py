"""The committed stubs match the .proto sources, import as a package, and follow the conventions."""

from __future__ import annotations

from pathlib import Path

from ambit.proto import build as proto_build


def test_committed_stubs_are_fresh(tmp_path: Path) -> None:
    fresh = proto_build.build(tmp_path)
    assert fresh, "no stubs generated"
    for path in fresh:
        rel = path.relative_to(tmp_path)
        committed = proto_build.PROTO_ROOT / rel
        assert committed.exists(), f"{rel} is not committed: run `python -m ambit.proto.build`"
        assert committed.read_bytes() == path.read_bytes(), f"{rel} is stale: run `python -m ambit.proto.build`"


def test_stubs_import_as_a_package() -> None:
    from ambit.proto.v1 import ambit_pb2, ambit_pb2_grpc

    assert ambit_pb2.DESCRIPTOR.package == "ambit.v1"
    assert hasattr(ambit_pb2_grpc, "AmbitServiceStub")
    assert hasattr(ambit_pb2_grpc, "add_AmbitServiceServicer_to_server")


def test_enums_start_unspecified_and_requests_carry_ids() -> None:
    from ambit.proto.v1 import ambit_pb2

    for enum in ambit_pb2.DESCRIPTOR.enum_types_by_name.values():
        assert enum.values[0].number == 0 and enum.values[0].name.endswith("_UNSPECIFIED"), enum.name
    service = ambit_pb2.DESCRIPTOR.services_by_name["AmbitService"]
    for method in service.methods:
        for message in (method.input_type, method.output_type):
            if not message.name.endswith("BatchResult"):
                assert "request_id" in message.fields_by_name, f"{message.name} lacks request_id"


def test_batch_rpcs_stream_results_with_index_and_status() -> None:
    from ambit.proto.v1 import ambit_pb2

    service = ambit_pb2.DESCRIPTOR.services_by_name["AmbitService"]
    for name in ("ScoreCandidatesBatch", "CheckEquivalenceBatch"):
        method = service.methods_by_name[name]
        assert method.server_streaming and not method.client_streaming
        fields = method.output_type.fields_by_name
        assert {"index", "status", "response"} <= set(fields)
        assert fields["status"].message_type.full_name == "google.rpc.Status"
