"""``ambit <command> ...``: one-off calls to an ambit server, and ``eval``.

Every command takes ``--server`` (default: an embedded server), the TLS and token options and
``--json``. A server error prints the gRPC status code name and message and exits with status 1."""

from __future__ import annotations

import argparse
import dataclasses
import json
import sys
from typing import Any

from ambit import _extras
from ambit.client.cli_options import add_log_level, add_prolog_seconds, failed, quiet_grpc
from ambit.logic.syntax.dialect import AMP_NAMES, CLI_NAMES, DEFAULT_DIALECT, FOL

EQUIVALENCE_FORMATS = CLI_NAMES  # equiv / entails: every dialect (the registry's, as `ambit logic`)
LOCAL_COMMANDS = ("equiv", "entails", "canon")  # `ambit logic` answers these without a server
FORMULA_COMMANDS = ("equiv", "entails", "canon")  # commands that take formulas, which may start with '-'


def _common(p: argparse.ArgumentParser) -> None:
    from ambit.client import credentials
    p.add_argument("--server", help="host:port[,host:port...] (default: embedded server)")
    credentials.add_arguments(p)
    p.add_argument("--model", help="model for the embedded server")
    p.add_argument("--json", action="store_true", help="print JSON")
    p.add_argument("--timeout", type=float, default=600.0, help="per-call deadline, seconds")
    add_log_level(p)


def _usage_with_default(p: argparse.ArgumentParser, option: str, default: str) -> None:
    """The usage line with the dialect option's default in it: `[--from {fol,...} (default folio)]`."""
    choices = "{" + ",".join(EQUIVALENCE_FORMATS) + "}"
    text = p.format_usage().removeprefix("usage: ").rstrip("\n")
    p.usage = text.replace(f"{option} {choices}]", f"{option} {choices} (default {default})]", 1).replace("%", "%%")


def _dialect(p: argparse.ArgumentParser, command: str, *flags: str) -> None:
    """The dialect option of `equiv` and `entails` (default in the usage line) and time limit."""
    default = DEFAULT_DIALECT[command]
    what = "A and B" if command == "equiv" else "the premises and the conclusion"
    p.add_argument(*flags, dest="fmt", choices=EQUIVALENCE_FORMATS, default=default,
                   help=f"dialect of {what} (default {default})")
    p.add_argument("--time-limit-ms", type=int, default=0)
    _usage_with_default(p, flags[0], default)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="ambit", description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="command", required=True, metavar="command")

    def command(name: str, text: str) -> argparse.ArgumentParser:
        p = sub.add_parser(name, help=text)
        _common(p)
        return p

    p = command("parse", "decode k LFs for an utterance, grouped into meanings")
    p.add_argument("utterance")
    p.add_argument("--prompt", help='literal prompt ("{utterance}" is filled in)')
    p.add_argument("--setting", choices=("zeroshot", "fewshot"), help="let the server build an AmP prompt instead")
    p.add_argument("--type", default="", help="AmP ambiguity type (with --setting)")
    p.add_argument("--ratio", type=float, default=0.0, help="few-shot LF0 ratio (with --setting)")
    p.add_argument("-k", type=int, default=5, help="beam size / samples")
    p.add_argument("--sample", action="store_true", help="sample instead of beam search")
    p.add_argument("--format", dest="fmt", choices=AMP_NAMES, default=FOL)
    add_prolog_seconds(p)

    p = command("score", "forced-decode scores of candidate continuations")
    p.add_argument("prompt")
    p.add_argument("candidates", nargs="+")
    p.add_argument("--end-marker", action="store_true")

    p = command("equiv", "logical equivalence of two LFs (Prolog)")
    p.add_argument("a")
    p.add_argument("b")
    _dialect(p, "equiv", "--format", "--from")
    p.add_argument("--free-variables", choices=("universal", "constant", "error"), default=None,
                   help="how a free variable is read (default: the format's own rule, as in `ambit logic equiv`)")

    p = command("entails", "do premises entail a conclusion (full first-order logic, Prolog)")
    p.add_argument("--premises", required=True, metavar="FILE",
                   help="the premises, one formula per line (blank lines skipped; - for stdin)")
    p.add_argument("--conclusion", required=True, metavar="TEXT")
    _dialect(p, "entails", "--from", "--format")

    p = command("canon", "canonical form of an LF")
    p.add_argument("lf")
    p.add_argument("--format", dest="fmt", choices=AMP_NAMES, default=FOL)
    p.add_argument("--to", choices=AMP_NAMES)
    p.add_argument("--vars", choices=("amp", "v"), default="amp")

    p = command("radd", "regularity reasoning on a RADD instance")
    p.add_argument("text", help="the instance text (messages[0]), or @FILE to read it from a file")
    for name, text in (("health", "standard gRPC health check"), ("info", "model and limits"),
                       ("stats", "request counts per method")):
        command(name, text)
    sub.add_parser("eval", help="run an evaluation suite (ambit eval -h)", add_help=False)
    sub.add_parser("explain", help="explain readings: paraphrases, situations, question (ambit explain -h)",
                   add_help=False)
    return parser


def _plain(obj: Any) -> Any:
    if dataclasses.is_dataclass(obj):
        return {k: _plain(v) for k, v in dataclasses.asdict(obj).items()}
    if isinstance(obj, list):
        return [_plain(x) for x in obj]
    return obj


# how `ambit parse` shows a candidate's parse status: whether it reads as a formula, which says
# nothing of whether it is a right reading (the JSON keeps the wire's OK | INVALID | UNFINISHED)
PARSE_STATUS_SHOWN = {"OK": "parses", "INVALID": "does not parse", "UNFINISHED": "unfinished"}


def _human(command: str, result: Any) -> str:
    if command == "parse":
        lines = [f"model {result.model_id}; classes exact: {result.classes_exact} "
                 "(no gold here: [parses] says a candidate is a formula, not that it is a right reading)"]
        for i, c in enumerate(result.candidates):
            lines.append(f"{i + 1}. p={c.probability:.3f} logp={c.logprob:.2f} min={c.min_prob:.3f} "
                         f"[{PARSE_STATUS_SHOWN.get(c.parse_status, c.parse_status)}] class {c.meaning_class}: {c.text}")
        for j, m in enumerate(result.classes):
            lines.append(f"class {j}: mass {m.probability_mass:.3f} members {m.member_indices}: {m.canonical}")
        return "\n".join(lines)
    if command == "score":
        return "\n".join(f"min_prob={s.min_prob:.4f} renorm={s.min_prob_renorm:.4f} "
                         f"sum_logprob={s.sum_logprob:.3f} mean={s.mean_logprob:.3f}  {s.text}"
                         for s in result.scores)
    if command == "equiv":
        w = "" if result.witness is None else f"\nwitness: {json.dumps(result.witness)}"
        return (f"{result.verdict}\nA ⊨ B: {result.a_entails_b}\nB ⊨ A: {result.b_entails_a}"
                f"\ncanonical A: {result.canonical_a}\ncanonical B: {result.canonical_b}{w}")
    if command == "entails":
        return _human_entailment(result)
    if command in ("canon", "health"):
        return result
    if command == "radd":
        lines = [f"answer: {result.answer or '(none)'}"]
        lines += [f"  {i.label}: {i.verdict} ({i.relation}) {i.explanation}" for i in result.interpretations]
        lines += [f"  | {step}" for step in result.derivation]
        return "\n".join(lines)
    if command == "stats":
        lines = [f"server {result.server_id}, up {result.uptime_seconds:.0f}s, "
                 f"{result.model_batches} model batches / {result.model_jobs} jobs"]
        lines += [f"  {k}: {v} requests, {result.errors.get(k, 0)} errors"
                  for k, v in sorted(result.requests.items())]
        return "\n".join(lines)
    if dataclasses.is_dataclass(result):
        return "\n".join(f"{k}: {v}" for k, v in dataclasses.asdict(result).items())
    return str(result)


def _human_entailment(e: Any) -> str:
    lines = [e.verdict + (f" ({e.reason})" if e.reason else "")]
    if e.verdict == "UNKNOWN" and (e.entailed is not None or e.refuted is not None):
        lines.append("settled: " + "; ".join(f"{name}: {'yes' if v else 'no'}" for name, v in
                                             (("entailed", e.entailed), ("refuted", e.refuted)) if v is not None))
    if e.answered_by:
        lines.append("answered by: " + ", ".join(f"{part} {who}" for part, who in sorted(e.answered_by.items())))
    if e.premises_used:
        lines.append(f"premises used: {', '.join(str(i) for i in e.premises_used)}")
    for s in e.proof:
        where = f"premise {s['premise_index']}" if "premise_index" in s else s["source"]
        what = s.get("literal") or " ∨ ".join(s.get("literals", []))
        lines.append(f"  {'  ' * s['depth']}{s['step']} {what}" + (f" [{where}]" if where else ""))
    for name in ("countermodel", "model"):
        if (m := getattr(e, name)) is not None:
            consts = ", ".join(f"{c}={d}" for c, d in sorted(m["constants"].items()))
            funcs = "".join(f"; {t} = {d}" for t, d in sorted(m.get("functions", {}).items()))
            lines.append(f"{name}: domain {{{', '.join(m['domain'])}}}; {consts or 'no constants'}; "
                         f"true: {', '.join(m['true_atoms']) or '(none)'}{funcs}")
    return "\n".join(lines)


def _premises(path: str) -> list[str]:
    """The premises file's non-blank lines (ValueError: a formula where the file belongs)."""
    if path == "-":
        return [line.strip() for line in sys.stdin if line.strip()]
    from ambit.logic.cli.common import is_premises_formula, premises_is_a_file

    if is_premises_formula(path):
        raise ValueError(premises_is_a_file(path))
    return [line.strip() for line in _read(path, "--premises").splitlines() if line.strip()]


def _read(path: str, what: str) -> str:
    """A regular file's text (no link followed, at most the file layer's default limit)."""
    from ambit import _files

    try:
        return _files.read_text(path)
    except OSError as e:
        raise ValueError(f"{what} {e}") from None


def _json(command: str, result: Any) -> Any:
    key = {"canon": "canonical", "health": "status"}.get(command)
    return {key: result} if key else _plain(result)


def _call(client, args) -> Any:
    c = args.command
    if c == "parse":
        return client.parse_distribution(args.utterance, prompt=args.prompt, fmt=args.fmt, k=args.k,
                                         strategy="sample" if args.sample else "beam",
                                         setting=args.setting, type=args.type, ratio=args.ratio,
                                         prolog_seconds=args.prolog_seconds)
    if c == "score":
        return client.score(args.prompt, args.candidates, end_marker=args.end_marker)
    if c == "equiv":
        return client.equivalent(args.a, args.b, fmt=args.fmt, time_limit_ms=args.time_limit_ms,
                                 free_variables=args.free_variables)
    if c == "entails":
        return client.check_entailment(_premises(args.premises), args.conclusion, fmt=args.fmt,
                                       time_limit_ms=args.time_limit_ms)
    if c == "canon":
        return client.canonicalize(args.lf, fmt=args.fmt, to=args.to, vars=args.vars)
    if c == "radd":
        text = args.text
        return client.verify_radd(_read(text[1:], "radd") if text.startswith("@") else text)
    if c in ("health", "info", "stats"):
        return getattr(client, c)()
    raise AssertionError(c)


def _instead(command: str) -> str:
    """What a user without a model extra can run instead of `ambit COMMAND` on an embedded server."""
    local = f"`ambit logic {command}` (a local check, no model) or " if command in LOCAL_COMMANDS else ""
    return f"{local}--server HOST:PORT (a running ambit serve)"


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    quiet_grpc(argv)
    if argv and argv[0] == "eval":
        from ambit.client.eval.cli import main as eval_main
        return eval_main(argv[1:])
    if argv and argv[0] == "explain":
        from ambit.client.explain_cli import main as explain_main
        return explain_main(argv[1:])
    parser = build_parser()
    if argv and argv[0] in FORMULA_COMMANDS:  # a formula that starts with '-' (a negation) is one: -p
        from ambit.logic.cli.common import formulas_first_dash, say_where_formulas_go

        sub = parser._subparsers._group_actions[0].choices[argv[0]]  # type: ignore[union-attr]
        say_where_formulas_go(sub)
        argv = [argv[0], *formulas_first_dash(sub, argv[1:])]
    args = parser.parse_args(argv)
    from ambit.client.api import AmbitError
    from ambit.client.connect import connect, require_model
    from ambit.client.credentials import from_args
    try:
        security = from_args(args)
        require_model(args.server, args.model, _instead(args.command))
    except (ValueError, _extras.MissingExtra) as err:  # the embedded model needs an extra
        return failed(err)
    try:
        with connect(args.server, args.model, timeout=args.timeout, quiet=args.json, security=security) as client:
            result = _call(client, args)
    except (ValueError, AmbitError) as err:  # ValueError: a token refused, a bad address
        if args.json and isinstance(err, AmbitError):  # the one error shape (logic.error_json)
            from ambit.logic.error_json import error_object

            field = err.violations[0]["field"] if err.violations else ""
            print(json.dumps(error_object(err.code, err.message, field, violations=err.violations),
                             ensure_ascii=False))
        return failed(err)
    if args.json:
        print(json.dumps(_json(args.command, result), ensure_ascii=False, indent=2))
    else:
        print(_human(args.command, result))
    return 0


if __name__ == "__main__":
    sys.exit(main())
