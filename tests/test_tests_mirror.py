"""The tests mirror the code: a test module sits in the folder of tests/ that mirrors the package of
src/ambit/ it tests (tests/logic/syntax/ for ambit.logic.syntax, ...), or in a folder that tests no
source (NON_SRC). One that sits at the root of a package made of subpackages (GROUPING: tests/,
tests/logic/, tests/server/, tests/client/, tests/client/eval/, tests/generators/) is named in
AT_PACKAGE_ROOT with why it stays there: it tests several layers, or the package's own root
modules. A new test dropped there fails here until it moves to its subpackage's folder or is
named below."""

from __future__ import annotations

from tests.paths import REPO

SRC = REPO / "src" / "ambit"
NON_SRC = ('deploy', 'docs', 'packaging')
GROUPING = ('', 'logic', 'server', 'client', 'client/eval', 'generators')  # folders under tests/ ("" is tests/ itself)
AT_PACKAGE_ROOT = {
    'tests/client/eval/test_eval.py': 'the runner, store and reports shared by every suite',
    'tests/client/eval/test_eval_data.py': "every suite's data root, and the README's main job",
    'tests/client/eval/test_eval_e2e.py': '`ambit eval all`: every suite end to end',
    'tests/client/eval/test_explained.py': 'tests several layers (API, CLI and RPCs, or a real server end to end)',
    'tests/client/eval/test_html_browser.py': "every suite's HTML report",
    'tests/client/eval/test_lazy_embedded.py': "the runner's embedded server (runner.py)",
    'tests/client/eval/test_metrics.py': 'client/eval/metrics.py',
    'tests/client/eval/test_out_hardening.py': 'the results folder of every suite (store.py)',
    'tests/client/eval/test_recorded_bounds.py': 'recorded inputs of several suites',
    'tests/client/eval/test_recorded_coverage.py': 'recorded inputs of several suites',
    'tests/client/eval/test_report_figures.py': 'client/eval/report*.py',
    'tests/client/eval/test_results_folder.py': 'the results folder (store.py)',
    'tests/client/eval/test_runner_retries.py': 'client/eval/runner.py',
    'tests/client/eval/test_summary_glossary.py': 'client/eval/glossary.py over every suite',
    'tests/client/test_client.py': 'tests the root modules of the package (no subpackage of its own)',
    'tests/client/test_client_drain.py': 'tests several layers (API, CLI and RPCs, or a real server end to end)',
    'tests/client/test_client_servers.py': 'tests several layers (API, CLI and RPCs, or a real server end to end)',
    'tests/client/test_entailment_client.py': 'tests several layers (API, CLI and RPCs, or a real server end to end)',
    'tests/client/test_explain_client.py': 'tests several layers (API, CLI and RPCs, or a real server end to end)',
    'tests/client/test_first_use.py': 'tests several layers (API, CLI and RPCs, or a real server end to end)',
    'tests/client/test_server_parse_hints.py': 'tests several layers (API, CLI and RPCs, or a real server end to end)',
    'tests/logic/test_budget_entry_points.py': 'tests several layers (API, CLI and RPCs, or a real server end to end)',
    'tests/logic/test_dialect_registry.py': 'the dialect registry against every module of the package',
    'tests/logic/test_fix_hints.py': 'dialect errors as `ambit logic` prints them: syntax and cli',
    'tests/logic/test_free_variables.py': 'tests several layers (API, CLI and RPCs, or a real server end to end)',
    'tests/logic/test_plunit.py': 'the plunit files of tests/logic/prolog/ for logic/engine/prolog/',
    'tests/logic/test_reading_deadline.py': 'tests several layers (API, CLI and RPCs, or a real server end to end)',
    'tests/logic/test_reading_time_limit.py': 'reading (syntax) under the deadline of `ambit logic entails` (cli)',
    'tests/logic/test_symbol_kinds.py': 'tests several layers (API, CLI and RPCs, or a real server end to end)',
    'tests/server/test_abuse_bounded_input.py': 'tests several layers (API, CLI and RPCs, or a real server end to end)',
    'tests/server/test_abuse_cancellation.py': 'tests several layers (API, CLI and RPCs, or a real server end to end)',
    'tests/server/test_abuse_drain.py': 'tests several layers (API, CLI and RPCs, or a real server end to end)',
    'tests/server/test_abuse_fairness.py': 'tests several layers (API, CLI and RPCs, or a real server end to end)',
    'tests/server/test_abuse_silent_calls.py': 'tests several layers (API, CLI and RPCs, or a real server end to end)',
    'tests/server/test_abuse_workers.py': 'tests several layers (API, CLI and RPCs, or a real server end to end)',
    'tests/server/test_backend_registry.py': "server/model.py's interface and server/backends.py, served",
    'tests/server/test_dialect_once.py': 'one CheckEquivalence followed from the RPC to Prolog (server and logic)',
    'tests/server/test_entailment_portfolio_rpc.py': 'tests several layers (API, CLI and RPCs, or a real server end to end)',
    'tests/server/test_entailment_rpc.py': 'tests several layers (API, CLI and RPCs, or a real server end to end)',
    'tests/server/test_explain_rpc.py': 'tests several layers (API, CLI and RPCs, or a real server end to end)',
    'tests/server/test_free_variable_policy.py': 'tests several layers (API, CLI and RPCs, or a real server end to end)',
    'tests/server/test_large_problem_deadline.py': 'the largest story under a deadline through gRPC and the web API (server and web)',
    'tests/server/test_typed_witness.py': 'tests several layers (API, CLI and RPCs, or a real server end to end)',
    'tests/server/test_generate_rpc.py': 'tests several layers (API, CLI and RPCs, or a real server end to end)',
    'tests/server/test_load_soak.py': 'tests several layers (API, CLI and RPCs, or a real server end to end)',
    'tests/server/test_option_bounds.py': '`ambit serve` options (server/app.py)',
    'tests/server/test_radd_resource_limits.py': 'tests several layers (API, CLI and RPCs, or a real server end to end)',
    'tests/server/test_seq2seq_server.py': 'tests several layers (API, CLI and RPCs, or a real server end to end)',
    'tests/server/test_server.py': 'the servicer and every RPC (server/servicer.py)',
    'tests/server/test_server_fuzz.py': 'tests several layers (API, CLI and RPCs, or a real server end to end)',
    'tests/server/test_server_model.py': 'server/model.py',
    'tests/server/test_server_process.py': 'tests several layers (API, CLI and RPCs, or a real server end to end)',
    'tests/server/test_server_prolog_limits.py': 'tests several layers (API, CLI and RPCs, or a real server end to end)',
    'tests/server/test_server_security.py': 'tests several layers (API, CLI and RPCs, or a real server end to end)',
    'tests/server/test_service_edges.py': 'tests several layers (API, CLI and RPCs, or a real server end to end)',
    'tests/test_api_cli.py': 'the `ambit` commands over client, server and logic',
    'tests/test_cli.py': 'ambit/cli.py, the root command',
    'tests/test_file_layer.py': "ambit/_files.py's rule over the whole package",
    'tests/test_files.py': 'ambit/_files.py',
    'tests/test_layering.py': 'the import layers of the whole package',
    'tests/test_function_length.py': 'the length of every function of the whole package',
    'tests/test_stale_prose.py': "the prose of the whole package names what exists",
    'tests/test_tests_layout.py': "the tests' own layout",
    'tests/test_tests_mirror.py': "the tests' own layout",
}


def test_every_test_module_sits_in_the_folder_that_mirrors_its_package():
    wrong = []
    for path in sorted((REPO / "tests").rglob("test_*.py")):
        rel = path.relative_to(REPO / "tests")
        folder = rel.parent
        name = path.relative_to(REPO).as_posix()
        if folder.parts and folder.parts[0] in NON_SRC:
            continue
        package = SRC.joinpath(*folder.parts)
        if not (package / "__init__.py").exists():
            wrong.append(f"{name}: no package src/ambit/{folder.as_posix()} for it to mirror")
        elif folder.as_posix().replace(".", "") in GROUPING and name not in AT_PACKAGE_ROOT:
            wrong.append(f"{name}: at the root of {'.'.join(('ambit',) + folder.parts)}, which is made of "
                         "subpackages: move it to the folder of the one it tests, or name it in AT_PACKAGE_ROOT")
    assert not wrong, "\n".join(wrong)


def test_every_test_folder_is_a_package():
    missing = [p.relative_to(REPO).as_posix() for p in sorted((REPO / "tests").rglob("test_*.py"))
               if not (p.parent / "__init__.py").exists()]
    assert not missing, f"folders without __init__.py (tests are imported as tests.<folder>.<module>): {missing}"


def test_the_allow_list_names_existing_files():
    stale = [name for name in AT_PACKAGE_ROOT if not (REPO / name).exists()]
    assert not stale, f"AT_PACKAGE_ROOT names files that are gone: {stale}"
