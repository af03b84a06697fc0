from google.rpc import status_pb2 as _status_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf.internal import enum_type_wrapper as _enum_type_wrapper
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class LFFormat(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    LF_FORMAT_UNSPECIFIED: _ClassVar[LFFormat]
    LF_FORMAT_FOL: _ClassVar[LFFormat]
    LF_FORMAT_LISP: _ClassVar[LFFormat]
    LF_FORMAT_FOLIO: _ClassVar[LFFormat]
    LF_FORMAT_NLTK: _ClassVar[LFFormat]
    LF_FORMAT_TPTP: _ClassVar[LFFormat]
    LF_FORMAT_PROVER9: _ClassVar[LFFormat]

class VarNaming(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    VAR_NAMING_UNSPECIFIED: _ClassVar[VarNaming]
    VAR_NAMING_AMP: _ClassVar[VarNaming]
    VAR_NAMING_V: _ClassVar[VarNaming]

class FreeVariables(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    FREE_VARIABLES_UNSPECIFIED: _ClassVar[FreeVariables]
    FREE_VARIABLES_UNIVERSAL: _ClassVar[FreeVariables]
    FREE_VARIABLES_CONSTANT: _ClassVar[FreeVariables]
    FREE_VARIABLES_ERROR: _ClassVar[FreeVariables]

class Symbols(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    SYMBOLS_UNSPECIFIED: _ClassVar[Symbols]
    SYMBOLS_SHARED: _ClassVar[Symbols]
    SYMBOLS_SEPARATE: _ClassVar[Symbols]

class DecodingStrategy(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    DECODING_STRATEGY_UNSPECIFIED: _ClassVar[DecodingStrategy]
    DECODING_STRATEGY_BEAM: _ClassVar[DecodingStrategy]
    DECODING_STRATEGY_SAMPLE: _ClassVar[DecodingStrategy]

class PromptSetting(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    PROMPT_SETTING_UNSPECIFIED: _ClassVar[PromptSetting]
    PROMPT_SETTING_ZEROSHOT: _ClassVar[PromptSetting]
    PROMPT_SETTING_FEWSHOT: _ClassVar[PromptSetting]

class ParseStatus(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    PARSE_STATUS_UNSPECIFIED: _ClassVar[ParseStatus]
    PARSE_STATUS_OK: _ClassVar[ParseStatus]
    PARSE_STATUS_INVALID: _ClassVar[ParseStatus]
    PARSE_STATUS_UNFINISHED: _ClassVar[ParseStatus]

class Verdict(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    VERDICT_UNSPECIFIED: _ClassVar[Verdict]
    VERDICT_EQUIVALENT: _ClassVar[Verdict]
    VERDICT_NOT_EQUIVALENT: _ClassVar[Verdict]
    VERDICT_UNKNOWN: _ClassVar[Verdict]

class Consistency(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    CONSISTENCY_UNSPECIFIED: _ClassVar[Consistency]
    CONSISTENCY_CONSISTENT: _ClassVar[Consistency]
    CONSISTENCY_INCONSISTENT: _ClassVar[Consistency]
    CONSISTENCY_UNKNOWN: _ClassVar[Consistency]

class EntailmentVerdict(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    ENTAILMENT_VERDICT_UNSPECIFIED: _ClassVar[EntailmentVerdict]
    ENTAILMENT_VERDICT_TRUE: _ClassVar[EntailmentVerdict]
    ENTAILMENT_VERDICT_FALSE: _ClassVar[EntailmentVerdict]
    ENTAILMENT_VERDICT_UNCERTAIN: _ClassVar[EntailmentVerdict]
    ENTAILMENT_VERDICT_INCONSISTENT: _ClassVar[EntailmentVerdict]
    ENTAILMENT_VERDICT_UNKNOWN: _ClassVar[EntailmentVerdict]
LF_FORMAT_UNSPECIFIED: LFFormat
LF_FORMAT_FOL: LFFormat
LF_FORMAT_LISP: LFFormat
LF_FORMAT_FOLIO: LFFormat
LF_FORMAT_NLTK: LFFormat
LF_FORMAT_TPTP: LFFormat
LF_FORMAT_PROVER9: LFFormat
VAR_NAMING_UNSPECIFIED: VarNaming
VAR_NAMING_AMP: VarNaming
VAR_NAMING_V: VarNaming
FREE_VARIABLES_UNSPECIFIED: FreeVariables
FREE_VARIABLES_UNIVERSAL: FreeVariables
FREE_VARIABLES_CONSTANT: FreeVariables
FREE_VARIABLES_ERROR: FreeVariables
SYMBOLS_UNSPECIFIED: Symbols
SYMBOLS_SHARED: Symbols
SYMBOLS_SEPARATE: Symbols
DECODING_STRATEGY_UNSPECIFIED: DecodingStrategy
DECODING_STRATEGY_BEAM: DecodingStrategy
DECODING_STRATEGY_SAMPLE: DecodingStrategy
PROMPT_SETTING_UNSPECIFIED: PromptSetting
PROMPT_SETTING_ZEROSHOT: PromptSetting
PROMPT_SETTING_FEWSHOT: PromptSetting
PARSE_STATUS_UNSPECIFIED: ParseStatus
PARSE_STATUS_OK: ParseStatus
PARSE_STATUS_INVALID: ParseStatus
PARSE_STATUS_UNFINISHED: ParseStatus
VERDICT_UNSPECIFIED: Verdict
VERDICT_EQUIVALENT: Verdict
VERDICT_NOT_EQUIVALENT: Verdict
VERDICT_UNKNOWN: Verdict
CONSISTENCY_UNSPECIFIED: Consistency
CONSISTENCY_CONSISTENT: Consistency
CONSISTENCY_INCONSISTENT: Consistency
CONSISTENCY_UNKNOWN: Consistency
ENTAILMENT_VERDICT_UNSPECIFIED: EntailmentVerdict
ENTAILMENT_VERDICT_TRUE: EntailmentVerdict
ENTAILMENT_VERDICT_FALSE: EntailmentVerdict
ENTAILMENT_VERDICT_UNCERTAIN: EntailmentVerdict
ENTAILMENT_VERDICT_INCONSISTENT: EntailmentVerdict
ENTAILMENT_VERDICT_UNKNOWN: EntailmentVerdict

class ParseError(_message.Message):
    __slots__ = ("message", "kind", "position", "column", "token", "expected")
    MESSAGE_FIELD_NUMBER: _ClassVar[int]
    KIND_FIELD_NUMBER: _ClassVar[int]
    POSITION_FIELD_NUMBER: _ClassVar[int]
    COLUMN_FIELD_NUMBER: _ClassVar[int]
    TOKEN_FIELD_NUMBER: _ClassVar[int]
    EXPECTED_FIELD_NUMBER: _ClassVar[int]
    message: str
    kind: str
    position: int
    column: int
    token: str
    expected: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, message: _Optional[str] = ..., kind: _Optional[str] = ..., position: _Optional[int] = ..., column: _Optional[int] = ..., token: _Optional[str] = ..., expected: _Optional[_Iterable[str]] = ...) -> None: ...

class PromptSpec(_message.Message):
    __slots__ = ("setting", "type", "ratio", "seed", "num_examples")
    SETTING_FIELD_NUMBER: _ClassVar[int]
    TYPE_FIELD_NUMBER: _ClassVar[int]
    RATIO_FIELD_NUMBER: _ClassVar[int]
    SEED_FIELD_NUMBER: _ClassVar[int]
    NUM_EXAMPLES_FIELD_NUMBER: _ClassVar[int]
    setting: PromptSetting
    type: str
    ratio: float
    seed: int
    num_examples: int
    def __init__(self, setting: _Optional[_Union[PromptSetting, str]] = ..., type: _Optional[str] = ..., ratio: _Optional[float] = ..., seed: _Optional[int] = ..., num_examples: _Optional[int] = ...) -> None: ...

class Vocabulary(_message.Message):
    __slots__ = ("unary", "binary", "constants", "variables")
    UNARY_FIELD_NUMBER: _ClassVar[int]
    BINARY_FIELD_NUMBER: _ClassVar[int]
    CONSTANTS_FIELD_NUMBER: _ClassVar[int]
    VARIABLES_FIELD_NUMBER: _ClassVar[int]
    unary: _containers.RepeatedScalarFieldContainer[str]
    binary: _containers.RepeatedScalarFieldContainer[str]
    constants: _containers.RepeatedScalarFieldContainer[str]
    variables: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, unary: _Optional[_Iterable[str]] = ..., binary: _Optional[_Iterable[str]] = ..., constants: _Optional[_Iterable[str]] = ..., variables: _Optional[_Iterable[str]] = ...) -> None: ...

class DecodingParams(_message.Message):
    __slots__ = ("strategy", "beam_size", "num_samples", "temperature", "top_p", "max_tokens", "closed_vocabulary", "vocabulary", "seed")
    STRATEGY_FIELD_NUMBER: _ClassVar[int]
    BEAM_SIZE_FIELD_NUMBER: _ClassVar[int]
    NUM_SAMPLES_FIELD_NUMBER: _ClassVar[int]
    TEMPERATURE_FIELD_NUMBER: _ClassVar[int]
    TOP_P_FIELD_NUMBER: _ClassVar[int]
    MAX_TOKENS_FIELD_NUMBER: _ClassVar[int]
    CLOSED_VOCABULARY_FIELD_NUMBER: _ClassVar[int]
    VOCABULARY_FIELD_NUMBER: _ClassVar[int]
    SEED_FIELD_NUMBER: _ClassVar[int]
    strategy: DecodingStrategy
    beam_size: int
    num_samples: int
    temperature: float
    top_p: float
    max_tokens: int
    closed_vocabulary: bool
    vocabulary: Vocabulary
    seed: int
    def __init__(self, strategy: _Optional[_Union[DecodingStrategy, str]] = ..., beam_size: _Optional[int] = ..., num_samples: _Optional[int] = ..., temperature: _Optional[float] = ..., top_p: _Optional[float] = ..., max_tokens: _Optional[int] = ..., closed_vocabulary: _Optional[bool] = ..., vocabulary: _Optional[_Union[Vocabulary, _Mapping]] = ..., seed: _Optional[int] = ...) -> None: ...

class LFCandidate(_message.Message):
    __slots__ = ("text", "logprob", "min_prob", "token_probs", "tokens", "parse_status", "canonical", "parse_error", "probability", "meaning_class")
    TEXT_FIELD_NUMBER: _ClassVar[int]
    LOGPROB_FIELD_NUMBER: _ClassVar[int]
    MIN_PROB_FIELD_NUMBER: _ClassVar[int]
    TOKEN_PROBS_FIELD_NUMBER: _ClassVar[int]
    TOKENS_FIELD_NUMBER: _ClassVar[int]
    PARSE_STATUS_FIELD_NUMBER: _ClassVar[int]
    CANONICAL_FIELD_NUMBER: _ClassVar[int]
    PARSE_ERROR_FIELD_NUMBER: _ClassVar[int]
    PROBABILITY_FIELD_NUMBER: _ClassVar[int]
    MEANING_CLASS_FIELD_NUMBER: _ClassVar[int]
    text: str
    logprob: float
    min_prob: float
    token_probs: _containers.RepeatedScalarFieldContainer[float]
    tokens: _containers.RepeatedScalarFieldContainer[str]
    parse_status: ParseStatus
    canonical: str
    parse_error: ParseError
    probability: float
    meaning_class: int
    def __init__(self, text: _Optional[str] = ..., logprob: _Optional[float] = ..., min_prob: _Optional[float] = ..., token_probs: _Optional[_Iterable[float]] = ..., tokens: _Optional[_Iterable[str]] = ..., parse_status: _Optional[_Union[ParseStatus, str]] = ..., canonical: _Optional[str] = ..., parse_error: _Optional[_Union[ParseError, _Mapping]] = ..., probability: _Optional[float] = ..., meaning_class: _Optional[int] = ...) -> None: ...

class MeaningClass(_message.Message):
    __slots__ = ("canonical", "probability_mass", "member_indices", "paraphrase")
    CANONICAL_FIELD_NUMBER: _ClassVar[int]
    PROBABILITY_MASS_FIELD_NUMBER: _ClassVar[int]
    MEMBER_INDICES_FIELD_NUMBER: _ClassVar[int]
    PARAPHRASE_FIELD_NUMBER: _ClassVar[int]
    canonical: str
    probability_mass: float
    member_indices: _containers.RepeatedScalarFieldContainer[int]
    paraphrase: str
    def __init__(self, canonical: _Optional[str] = ..., probability_mass: _Optional[float] = ..., member_indices: _Optional[_Iterable[int]] = ..., paraphrase: _Optional[str] = ...) -> None: ...

class ParseDistributionRequest(_message.Message):
    __slots__ = ("request_id", "utterance", "prompt", "prompt_spec", "format", "decoding", "parameters", "explain", "time_limit_ms")
    class ParametersEntry(_message.Message):
        __slots__ = ("key", "value")
        KEY_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        key: str
        value: str
        def __init__(self, key: _Optional[str] = ..., value: _Optional[str] = ...) -> None: ...
    REQUEST_ID_FIELD_NUMBER: _ClassVar[int]
    UTTERANCE_FIELD_NUMBER: _ClassVar[int]
    PROMPT_FIELD_NUMBER: _ClassVar[int]
    PROMPT_SPEC_FIELD_NUMBER: _ClassVar[int]
    FORMAT_FIELD_NUMBER: _ClassVar[int]
    DECODING_FIELD_NUMBER: _ClassVar[int]
    PARAMETERS_FIELD_NUMBER: _ClassVar[int]
    EXPLAIN_FIELD_NUMBER: _ClassVar[int]
    TIME_LIMIT_MS_FIELD_NUMBER: _ClassVar[int]
    request_id: str
    utterance: str
    prompt: str
    prompt_spec: PromptSpec
    format: LFFormat
    decoding: DecodingParams
    parameters: _containers.ScalarMap[str, str]
    explain: bool
    time_limit_ms: int
    def __init__(self, request_id: _Optional[str] = ..., utterance: _Optional[str] = ..., prompt: _Optional[str] = ..., prompt_spec: _Optional[_Union[PromptSpec, _Mapping]] = ..., format: _Optional[_Union[LFFormat, str]] = ..., decoding: _Optional[_Union[DecodingParams, _Mapping]] = ..., parameters: _Optional[_Mapping[str, str]] = ..., explain: _Optional[bool] = ..., time_limit_ms: _Optional[int] = ...) -> None: ...

class ParseDistributionResponse(_message.Message):
    __slots__ = ("request_id", "candidates", "classes", "classes_exact", "prompt", "model_id", "unparsed_mass", "explanation")
    REQUEST_ID_FIELD_NUMBER: _ClassVar[int]
    CANDIDATES_FIELD_NUMBER: _ClassVar[int]
    CLASSES_FIELD_NUMBER: _ClassVar[int]
    CLASSES_EXACT_FIELD_NUMBER: _ClassVar[int]
    PROMPT_FIELD_NUMBER: _ClassVar[int]
    MODEL_ID_FIELD_NUMBER: _ClassVar[int]
    UNPARSED_MASS_FIELD_NUMBER: _ClassVar[int]
    EXPLANATION_FIELD_NUMBER: _ClassVar[int]
    request_id: str
    candidates: _containers.RepeatedCompositeFieldContainer[LFCandidate]
    classes: _containers.RepeatedCompositeFieldContainer[MeaningClass]
    classes_exact: bool
    prompt: str
    model_id: str
    unparsed_mass: float
    explanation: ExplainReadingsResponse
    def __init__(self, request_id: _Optional[str] = ..., candidates: _Optional[_Iterable[_Union[LFCandidate, _Mapping]]] = ..., classes: _Optional[_Iterable[_Union[MeaningClass, _Mapping]]] = ..., classes_exact: _Optional[bool] = ..., prompt: _Optional[str] = ..., model_id: _Optional[str] = ..., unparsed_mass: _Optional[float] = ..., explanation: _Optional[_Union[ExplainReadingsResponse, _Mapping]] = ...) -> None: ...

class ScoreCandidatesRequest(_message.Message):
    __slots__ = ("request_id", "prompt", "candidates", "end_marker", "parameters")
    class ParametersEntry(_message.Message):
        __slots__ = ("key", "value")
        KEY_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        key: str
        value: str
        def __init__(self, key: _Optional[str] = ..., value: _Optional[str] = ...) -> None: ...
    REQUEST_ID_FIELD_NUMBER: _ClassVar[int]
    PROMPT_FIELD_NUMBER: _ClassVar[int]
    CANDIDATES_FIELD_NUMBER: _ClassVar[int]
    END_MARKER_FIELD_NUMBER: _ClassVar[int]
    PARAMETERS_FIELD_NUMBER: _ClassVar[int]
    request_id: str
    prompt: str
    candidates: _containers.RepeatedScalarFieldContainer[str]
    end_marker: bool
    parameters: _containers.ScalarMap[str, str]
    def __init__(self, request_id: _Optional[str] = ..., prompt: _Optional[str] = ..., candidates: _Optional[_Iterable[str]] = ..., end_marker: _Optional[bool] = ..., parameters: _Optional[_Mapping[str, str]] = ...) -> None: ...

class CandidateScore(_message.Message):
    __slots__ = ("text", "tokens", "token_ids", "token_probs", "min_prob", "min_prob_renorm", "sum_logprob", "mean_logprob", "end_logprob")
    TEXT_FIELD_NUMBER: _ClassVar[int]
    TOKENS_FIELD_NUMBER: _ClassVar[int]
    TOKEN_IDS_FIELD_NUMBER: _ClassVar[int]
    TOKEN_PROBS_FIELD_NUMBER: _ClassVar[int]
    MIN_PROB_FIELD_NUMBER: _ClassVar[int]
    MIN_PROB_RENORM_FIELD_NUMBER: _ClassVar[int]
    SUM_LOGPROB_FIELD_NUMBER: _ClassVar[int]
    MEAN_LOGPROB_FIELD_NUMBER: _ClassVar[int]
    END_LOGPROB_FIELD_NUMBER: _ClassVar[int]
    text: str
    tokens: _containers.RepeatedScalarFieldContainer[str]
    token_ids: _containers.RepeatedScalarFieldContainer[int]
    token_probs: _containers.RepeatedScalarFieldContainer[float]
    min_prob: float
    min_prob_renorm: float
    sum_logprob: float
    mean_logprob: float
    end_logprob: float
    def __init__(self, text: _Optional[str] = ..., tokens: _Optional[_Iterable[str]] = ..., token_ids: _Optional[_Iterable[int]] = ..., token_probs: _Optional[_Iterable[float]] = ..., min_prob: _Optional[float] = ..., min_prob_renorm: _Optional[float] = ..., sum_logprob: _Optional[float] = ..., mean_logprob: _Optional[float] = ..., end_logprob: _Optional[float] = ...) -> None: ...

class ScoreCandidatesResponse(_message.Message):
    __slots__ = ("request_id", "scores", "model_id")
    REQUEST_ID_FIELD_NUMBER: _ClassVar[int]
    SCORES_FIELD_NUMBER: _ClassVar[int]
    MODEL_ID_FIELD_NUMBER: _ClassVar[int]
    request_id: str
    scores: _containers.RepeatedCompositeFieldContainer[CandidateScore]
    model_id: str
    def __init__(self, request_id: _Optional[str] = ..., scores: _Optional[_Iterable[_Union[CandidateScore, _Mapping]]] = ..., model_id: _Optional[str] = ...) -> None: ...

class ScoreCandidatesBatchRequest(_message.Message):
    __slots__ = ("request_id", "items")
    REQUEST_ID_FIELD_NUMBER: _ClassVar[int]
    ITEMS_FIELD_NUMBER: _ClassVar[int]
    request_id: str
    items: _containers.RepeatedCompositeFieldContainer[ScoreCandidatesRequest]
    def __init__(self, request_id: _Optional[str] = ..., items: _Optional[_Iterable[_Union[ScoreCandidatesRequest, _Mapping]]] = ...) -> None: ...

class ScoreCandidatesBatchResult(_message.Message):
    __slots__ = ("index", "status", "response")
    INDEX_FIELD_NUMBER: _ClassVar[int]
    STATUS_FIELD_NUMBER: _ClassVar[int]
    RESPONSE_FIELD_NUMBER: _ClassVar[int]
    index: int
    status: _status_pb2.Status
    response: ScoreCandidatesResponse
    def __init__(self, index: _Optional[int] = ..., status: _Optional[_Union[_status_pb2.Status, _Mapping]] = ..., response: _Optional[_Union[ScoreCandidatesResponse, _Mapping]] = ...) -> None: ...

class CheckEquivalenceRequest(_message.Message):
    __slots__ = ("request_id", "a", "b", "format", "time_limit_ms", "parameters", "free_variables", "symbols")
    class ParametersEntry(_message.Message):
        __slots__ = ("key", "value")
        KEY_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        key: str
        value: str
        def __init__(self, key: _Optional[str] = ..., value: _Optional[str] = ...) -> None: ...
    REQUEST_ID_FIELD_NUMBER: _ClassVar[int]
    A_FIELD_NUMBER: _ClassVar[int]
    B_FIELD_NUMBER: _ClassVar[int]
    FORMAT_FIELD_NUMBER: _ClassVar[int]
    TIME_LIMIT_MS_FIELD_NUMBER: _ClassVar[int]
    PARAMETERS_FIELD_NUMBER: _ClassVar[int]
    FREE_VARIABLES_FIELD_NUMBER: _ClassVar[int]
    SYMBOLS_FIELD_NUMBER: _ClassVar[int]
    request_id: str
    a: str
    b: str
    format: LFFormat
    time_limit_ms: int
    parameters: _containers.ScalarMap[str, str]
    free_variables: FreeVariables
    symbols: Symbols
    def __init__(self, request_id: _Optional[str] = ..., a: _Optional[str] = ..., b: _Optional[str] = ..., format: _Optional[_Union[LFFormat, str]] = ..., time_limit_ms: _Optional[int] = ..., parameters: _Optional[_Mapping[str, str]] = ..., free_variables: _Optional[_Union[FreeVariables, str]] = ..., symbols: _Optional[_Union[Symbols, str]] = ...) -> None: ...

class CheckEquivalenceResponse(_message.Message):
    __slots__ = ("request_id", "verdict", "a_entails_b", "b_entails_a", "witness_json", "canonical_a", "canonical_b", "witness")
    REQUEST_ID_FIELD_NUMBER: _ClassVar[int]
    VERDICT_FIELD_NUMBER: _ClassVar[int]
    A_ENTAILS_B_FIELD_NUMBER: _ClassVar[int]
    B_ENTAILS_A_FIELD_NUMBER: _ClassVar[int]
    WITNESS_JSON_FIELD_NUMBER: _ClassVar[int]
    CANONICAL_A_FIELD_NUMBER: _ClassVar[int]
    CANONICAL_B_FIELD_NUMBER: _ClassVar[int]
    WITNESS_FIELD_NUMBER: _ClassVar[int]
    request_id: str
    verdict: Verdict
    a_entails_b: bool
    b_entails_a: bool
    witness_json: str
    canonical_a: str
    canonical_b: str
    witness: EquivalenceWitness
    def __init__(self, request_id: _Optional[str] = ..., verdict: _Optional[_Union[Verdict, str]] = ..., a_entails_b: _Optional[bool] = ..., b_entails_a: _Optional[bool] = ..., witness_json: _Optional[str] = ..., canonical_a: _Optional[str] = ..., canonical_b: _Optional[str] = ..., witness: _Optional[_Union[EquivalenceWitness, _Mapping]] = ...) -> None: ...

class EquivalenceWitness(_message.Message):
    __slots__ = ("method", "proof_a_entails_b", "proof_b_entails_a", "method_a_entails_b", "method_b_entails_a", "direction", "true_in_model", "false_in_model", "model", "reason", "checked", "answered_by", "reading_json")
    class AnsweredByEntry(_message.Message):
        __slots__ = ("key", "value")
        KEY_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        key: str
        value: str
        def __init__(self, key: _Optional[str] = ..., value: _Optional[str] = ...) -> None: ...
    METHOD_FIELD_NUMBER: _ClassVar[int]
    PROOF_A_ENTAILS_B_FIELD_NUMBER: _ClassVar[int]
    PROOF_B_ENTAILS_A_FIELD_NUMBER: _ClassVar[int]
    METHOD_A_ENTAILS_B_FIELD_NUMBER: _ClassVar[int]
    METHOD_B_ENTAILS_A_FIELD_NUMBER: _ClassVar[int]
    DIRECTION_FIELD_NUMBER: _ClassVar[int]
    TRUE_IN_MODEL_FIELD_NUMBER: _ClassVar[int]
    FALSE_IN_MODEL_FIELD_NUMBER: _ClassVar[int]
    MODEL_FIELD_NUMBER: _ClassVar[int]
    REASON_FIELD_NUMBER: _ClassVar[int]
    CHECKED_FIELD_NUMBER: _ClassVar[int]
    ANSWERED_BY_FIELD_NUMBER: _ClassVar[int]
    READING_JSON_FIELD_NUMBER: _ClassVar[int]
    method: str
    proof_a_entails_b: Proof
    proof_b_entails_a: Proof
    method_a_entails_b: str
    method_b_entails_a: str
    direction: str
    true_in_model: str
    false_in_model: str
    model: Model
    reason: str
    checked: bool
    answered_by: _containers.ScalarMap[str, str]
    reading_json: str
    def __init__(self, method: _Optional[str] = ..., proof_a_entails_b: _Optional[_Union[Proof, _Mapping]] = ..., proof_b_entails_a: _Optional[_Union[Proof, _Mapping]] = ..., method_a_entails_b: _Optional[str] = ..., method_b_entails_a: _Optional[str] = ..., direction: _Optional[str] = ..., true_in_model: _Optional[str] = ..., false_in_model: _Optional[str] = ..., model: _Optional[_Union[Model, _Mapping]] = ..., reason: _Optional[str] = ..., checked: _Optional[bool] = ..., answered_by: _Optional[_Mapping[str, str]] = ..., reading_json: _Optional[str] = ...) -> None: ...

class Proof(_message.Message):
    __slots__ = ("steps", "premises_used")
    STEPS_FIELD_NUMBER: _ClassVar[int]
    PREMISES_USED_FIELD_NUMBER: _ClassVar[int]
    steps: _containers.RepeatedCompositeFieldContainer[ProofStep]
    premises_used: _containers.RepeatedScalarFieldContainer[int]
    def __init__(self, steps: _Optional[_Iterable[_Union[ProofStep, _Mapping]]] = ..., premises_used: _Optional[_Iterable[int]] = ...) -> None: ...

class Model(_message.Message):
    __slots__ = ("domain", "constants", "extensions", "true_atoms", "functions")
    class ConstantsEntry(_message.Message):
        __slots__ = ("key", "value")
        KEY_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        key: str
        value: str
        def __init__(self, key: _Optional[str] = ..., value: _Optional[str] = ...) -> None: ...
    class FunctionsEntry(_message.Message):
        __slots__ = ("key", "value")
        KEY_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        key: str
        value: str
        def __init__(self, key: _Optional[str] = ..., value: _Optional[str] = ...) -> None: ...
    DOMAIN_FIELD_NUMBER: _ClassVar[int]
    CONSTANTS_FIELD_NUMBER: _ClassVar[int]
    EXTENSIONS_FIELD_NUMBER: _ClassVar[int]
    TRUE_ATOMS_FIELD_NUMBER: _ClassVar[int]
    FUNCTIONS_FIELD_NUMBER: _ClassVar[int]
    domain: _containers.RepeatedScalarFieldContainer[str]
    constants: _containers.ScalarMap[str, str]
    extensions: _containers.RepeatedCompositeFieldContainer[Extension]
    true_atoms: _containers.RepeatedScalarFieldContainer[str]
    functions: _containers.ScalarMap[str, str]
    def __init__(self, domain: _Optional[_Iterable[str]] = ..., constants: _Optional[_Mapping[str, str]] = ..., extensions: _Optional[_Iterable[_Union[Extension, _Mapping]]] = ..., true_atoms: _Optional[_Iterable[str]] = ..., functions: _Optional[_Mapping[str, str]] = ...) -> None: ...

class Extension(_message.Message):
    __slots__ = ("predicate", "arity", "tuples")
    PREDICATE_FIELD_NUMBER: _ClassVar[int]
    ARITY_FIELD_NUMBER: _ClassVar[int]
    TUPLES_FIELD_NUMBER: _ClassVar[int]
    predicate: str
    arity: int
    tuples: _containers.RepeatedCompositeFieldContainer[ElementTuple]
    def __init__(self, predicate: _Optional[str] = ..., arity: _Optional[int] = ..., tuples: _Optional[_Iterable[_Union[ElementTuple, _Mapping]]] = ...) -> None: ...

class ElementTuple(_message.Message):
    __slots__ = ("elements",)
    ELEMENTS_FIELD_NUMBER: _ClassVar[int]
    elements: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, elements: _Optional[_Iterable[str]] = ...) -> None: ...

class CheckEquivalenceBatchRequest(_message.Message):
    __slots__ = ("request_id", "items")
    REQUEST_ID_FIELD_NUMBER: _ClassVar[int]
    ITEMS_FIELD_NUMBER: _ClassVar[int]
    request_id: str
    items: _containers.RepeatedCompositeFieldContainer[CheckEquivalenceRequest]
    def __init__(self, request_id: _Optional[str] = ..., items: _Optional[_Iterable[_Union[CheckEquivalenceRequest, _Mapping]]] = ...) -> None: ...

class CheckEquivalenceBatchResult(_message.Message):
    __slots__ = ("index", "status", "response")
    INDEX_FIELD_NUMBER: _ClassVar[int]
    STATUS_FIELD_NUMBER: _ClassVar[int]
    RESPONSE_FIELD_NUMBER: _ClassVar[int]
    index: int
    status: _status_pb2.Status
    response: CheckEquivalenceResponse
    def __init__(self, index: _Optional[int] = ..., status: _Optional[_Union[_status_pb2.Status, _Mapping]] = ..., response: _Optional[_Union[CheckEquivalenceResponse, _Mapping]] = ...) -> None: ...

class CanonicalizeRequest(_message.Message):
    __slots__ = ("request_id", "lf", "format", "output_format", "var_naming")
    REQUEST_ID_FIELD_NUMBER: _ClassVar[int]
    LF_FIELD_NUMBER: _ClassVar[int]
    FORMAT_FIELD_NUMBER: _ClassVar[int]
    OUTPUT_FORMAT_FIELD_NUMBER: _ClassVar[int]
    VAR_NAMING_FIELD_NUMBER: _ClassVar[int]
    request_id: str
    lf: str
    format: LFFormat
    output_format: LFFormat
    var_naming: VarNaming
    def __init__(self, request_id: _Optional[str] = ..., lf: _Optional[str] = ..., format: _Optional[_Union[LFFormat, str]] = ..., output_format: _Optional[_Union[LFFormat, str]] = ..., var_naming: _Optional[_Union[VarNaming, str]] = ...) -> None: ...

class CanonicalizeResponse(_message.Message):
    __slots__ = ("request_id", "canonical", "format")
    REQUEST_ID_FIELD_NUMBER: _ClassVar[int]
    CANONICAL_FIELD_NUMBER: _ClassVar[int]
    FORMAT_FIELD_NUMBER: _ClassVar[int]
    request_id: str
    canonical: str
    format: LFFormat
    def __init__(self, request_id: _Optional[str] = ..., canonical: _Optional[str] = ..., format: _Optional[_Union[LFFormat, str]] = ...) -> None: ...

class InterpretationVerdict(_message.Message):
    __slots__ = ("label", "text", "verdict", "relation", "explanation", "reading", "premises", "derivation")
    LABEL_FIELD_NUMBER: _ClassVar[int]
    TEXT_FIELD_NUMBER: _ClassVar[int]
    VERDICT_FIELD_NUMBER: _ClassVar[int]
    RELATION_FIELD_NUMBER: _ClassVar[int]
    EXPLANATION_FIELD_NUMBER: _ClassVar[int]
    READING_FIELD_NUMBER: _ClassVar[int]
    PREMISES_FIELD_NUMBER: _ClassVar[int]
    DERIVATION_FIELD_NUMBER: _ClassVar[int]
    label: str
    text: str
    verdict: Consistency
    relation: str
    explanation: str
    reading: str
    premises: _containers.RepeatedScalarFieldContainer[str]
    derivation: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, label: _Optional[str] = ..., text: _Optional[str] = ..., verdict: _Optional[_Union[Consistency, str]] = ..., relation: _Optional[str] = ..., explanation: _Optional[str] = ..., reading: _Optional[str] = ..., premises: _Optional[_Iterable[str]] = ..., derivation: _Optional[_Iterable[str]] = ...) -> None: ...

class VerifyRADDRequest(_message.Message):
    __slots__ = ("request_id", "text", "instance_json", "time_limit_ms", "parameters")
    class ParametersEntry(_message.Message):
        __slots__ = ("key", "value")
        KEY_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        key: str
        value: str
        def __init__(self, key: _Optional[str] = ..., value: _Optional[str] = ...) -> None: ...
    REQUEST_ID_FIELD_NUMBER: _ClassVar[int]
    TEXT_FIELD_NUMBER: _ClassVar[int]
    INSTANCE_JSON_FIELD_NUMBER: _ClassVar[int]
    TIME_LIMIT_MS_FIELD_NUMBER: _ClassVar[int]
    PARAMETERS_FIELD_NUMBER: _ClassVar[int]
    request_id: str
    text: str
    instance_json: str
    time_limit_ms: int
    parameters: _containers.ScalarMap[str, str]
    def __init__(self, request_id: _Optional[str] = ..., text: _Optional[str] = ..., instance_json: _Optional[str] = ..., time_limit_ms: _Optional[int] = ..., parameters: _Optional[_Mapping[str, str]] = ...) -> None: ...

class VerifyRADDResponse(_message.Message):
    __slots__ = ("request_id", "interpretations", "answer", "derivation", "details_json", "status", "answer_option")
    REQUEST_ID_FIELD_NUMBER: _ClassVar[int]
    INTERPRETATIONS_FIELD_NUMBER: _ClassVar[int]
    ANSWER_FIELD_NUMBER: _ClassVar[int]
    DERIVATION_FIELD_NUMBER: _ClassVar[int]
    DETAILS_JSON_FIELD_NUMBER: _ClassVar[int]
    STATUS_FIELD_NUMBER: _ClassVar[int]
    ANSWER_OPTION_FIELD_NUMBER: _ClassVar[int]
    request_id: str
    interpretations: _containers.RepeatedCompositeFieldContainer[InterpretationVerdict]
    answer: str
    derivation: _containers.RepeatedScalarFieldContainer[str]
    details_json: str
    status: str
    answer_option: int
    def __init__(self, request_id: _Optional[str] = ..., interpretations: _Optional[_Iterable[_Union[InterpretationVerdict, _Mapping]]] = ..., answer: _Optional[str] = ..., derivation: _Optional[_Iterable[str]] = ..., details_json: _Optional[str] = ..., status: _Optional[str] = ..., answer_option: _Optional[int] = ...) -> None: ...

class Limits(_message.Message):
    __slots__ = ("max_prompt_chars", "max_candidates", "max_candidate_chars", "max_lf_chars", "max_batch_items", "max_beam", "max_tokens", "max_message_bytes", "max_queue")
    MAX_PROMPT_CHARS_FIELD_NUMBER: _ClassVar[int]
    MAX_CANDIDATES_FIELD_NUMBER: _ClassVar[int]
    MAX_CANDIDATE_CHARS_FIELD_NUMBER: _ClassVar[int]
    MAX_LF_CHARS_FIELD_NUMBER: _ClassVar[int]
    MAX_BATCH_ITEMS_FIELD_NUMBER: _ClassVar[int]
    MAX_BEAM_FIELD_NUMBER: _ClassVar[int]
    MAX_TOKENS_FIELD_NUMBER: _ClassVar[int]
    MAX_MESSAGE_BYTES_FIELD_NUMBER: _ClassVar[int]
    MAX_QUEUE_FIELD_NUMBER: _ClassVar[int]
    max_prompt_chars: int
    max_candidates: int
    max_candidate_chars: int
    max_lf_chars: int
    max_batch_items: int
    max_beam: int
    max_tokens: int
    max_message_bytes: int
    max_queue: int
    def __init__(self, max_prompt_chars: _Optional[int] = ..., max_candidates: _Optional[int] = ..., max_candidate_chars: _Optional[int] = ..., max_lf_chars: _Optional[int] = ..., max_batch_items: _Optional[int] = ..., max_beam: _Optional[int] = ..., max_tokens: _Optional[int] = ..., max_message_bytes: _Optional[int] = ..., max_queue: _Optional[int] = ...) -> None: ...

class GetModelInfoRequest(_message.Message):
    __slots__ = ("request_id",)
    REQUEST_ID_FIELD_NUMBER: _ClassVar[int]
    request_id: str
    def __init__(self, request_id: _Optional[str] = ...) -> None: ...

class GetModelInfoResponse(_message.Message):
    __slots__ = ("request_id", "model_id", "device", "dtype", "vocab_size", "formats", "model_loaded", "limits", "max_batch", "server_id", "version", "model_kind", "remote")
    REQUEST_ID_FIELD_NUMBER: _ClassVar[int]
    MODEL_ID_FIELD_NUMBER: _ClassVar[int]
    DEVICE_FIELD_NUMBER: _ClassVar[int]
    DTYPE_FIELD_NUMBER: _ClassVar[int]
    VOCAB_SIZE_FIELD_NUMBER: _ClassVar[int]
    FORMATS_FIELD_NUMBER: _ClassVar[int]
    MODEL_LOADED_FIELD_NUMBER: _ClassVar[int]
    LIMITS_FIELD_NUMBER: _ClassVar[int]
    MAX_BATCH_FIELD_NUMBER: _ClassVar[int]
    SERVER_ID_FIELD_NUMBER: _ClassVar[int]
    VERSION_FIELD_NUMBER: _ClassVar[int]
    MODEL_KIND_FIELD_NUMBER: _ClassVar[int]
    REMOTE_FIELD_NUMBER: _ClassVar[int]
    request_id: str
    model_id: str
    device: str
    dtype: str
    vocab_size: int
    formats: _containers.RepeatedScalarFieldContainer[str]
    model_loaded: bool
    limits: Limits
    max_batch: int
    server_id: str
    version: str
    model_kind: str
    remote: RemoteModel
    def __init__(self, request_id: _Optional[str] = ..., model_id: _Optional[str] = ..., device: _Optional[str] = ..., dtype: _Optional[str] = ..., vocab_size: _Optional[int] = ..., formats: _Optional[_Iterable[str]] = ..., model_loaded: _Optional[bool] = ..., limits: _Optional[_Union[Limits, _Mapping]] = ..., max_batch: _Optional[int] = ..., server_id: _Optional[str] = ..., version: _Optional[str] = ..., model_kind: _Optional[str] = ..., remote: _Optional[_Union[RemoteModel, _Mapping]] = ...) -> None: ...

class RemoteModel(_message.Message):
    __slots__ = ("base_url", "model", "capabilities", "requests", "cache_hits", "retries", "prompt_tokens", "completion_tokens", "max_concurrency")
    BASE_URL_FIELD_NUMBER: _ClassVar[int]
    MODEL_FIELD_NUMBER: _ClassVar[int]
    CAPABILITIES_FIELD_NUMBER: _ClassVar[int]
    REQUESTS_FIELD_NUMBER: _ClassVar[int]
    CACHE_HITS_FIELD_NUMBER: _ClassVar[int]
    RETRIES_FIELD_NUMBER: _ClassVar[int]
    PROMPT_TOKENS_FIELD_NUMBER: _ClassVar[int]
    COMPLETION_TOKENS_FIELD_NUMBER: _ClassVar[int]
    MAX_CONCURRENCY_FIELD_NUMBER: _ClassVar[int]
    base_url: str
    model: str
    capabilities: _containers.RepeatedScalarFieldContainer[str]
    requests: int
    cache_hits: int
    retries: int
    prompt_tokens: int
    completion_tokens: int
    max_concurrency: int
    def __init__(self, base_url: _Optional[str] = ..., model: _Optional[str] = ..., capabilities: _Optional[_Iterable[str]] = ..., requests: _Optional[int] = ..., cache_hits: _Optional[int] = ..., retries: _Optional[int] = ..., prompt_tokens: _Optional[int] = ..., completion_tokens: _Optional[int] = ..., max_concurrency: _Optional[int] = ...) -> None: ...

class GetStatsRequest(_message.Message):
    __slots__ = ("request_id",)
    REQUEST_ID_FIELD_NUMBER: _ClassVar[int]
    request_id: str
    def __init__(self, request_id: _Optional[str] = ...) -> None: ...

class MethodStats(_message.Message):
    __slots__ = ("requests", "errors", "total_seconds")
    REQUESTS_FIELD_NUMBER: _ClassVar[int]
    ERRORS_FIELD_NUMBER: _ClassVar[int]
    TOTAL_SECONDS_FIELD_NUMBER: _ClassVar[int]
    requests: int
    errors: int
    total_seconds: float
    def __init__(self, requests: _Optional[int] = ..., errors: _Optional[int] = ..., total_seconds: _Optional[float] = ...) -> None: ...

class GetStatsResponse(_message.Message):
    __slots__ = ("request_id", "server_id", "methods", "model_batches", "model_jobs", "rejected", "uptime_seconds", "batch_items", "model_busy_seconds")
    class MethodsEntry(_message.Message):
        __slots__ = ("key", "value")
        KEY_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        key: str
        value: MethodStats
        def __init__(self, key: _Optional[str] = ..., value: _Optional[_Union[MethodStats, _Mapping]] = ...) -> None: ...
    REQUEST_ID_FIELD_NUMBER: _ClassVar[int]
    SERVER_ID_FIELD_NUMBER: _ClassVar[int]
    METHODS_FIELD_NUMBER: _ClassVar[int]
    MODEL_BATCHES_FIELD_NUMBER: _ClassVar[int]
    MODEL_JOBS_FIELD_NUMBER: _ClassVar[int]
    REJECTED_FIELD_NUMBER: _ClassVar[int]
    UPTIME_SECONDS_FIELD_NUMBER: _ClassVar[int]
    BATCH_ITEMS_FIELD_NUMBER: _ClassVar[int]
    MODEL_BUSY_SECONDS_FIELD_NUMBER: _ClassVar[int]
    request_id: str
    server_id: str
    methods: _containers.MessageMap[str, MethodStats]
    model_batches: int
    model_jobs: int
    rejected: int
    uptime_seconds: float
    batch_items: int
    model_busy_seconds: float
    def __init__(self, request_id: _Optional[str] = ..., server_id: _Optional[str] = ..., methods: _Optional[_Mapping[str, MethodStats]] = ..., model_batches: _Optional[int] = ..., model_jobs: _Optional[int] = ..., rejected: _Optional[int] = ..., uptime_seconds: _Optional[float] = ..., batch_items: _Optional[int] = ..., model_busy_seconds: _Optional[float] = ...) -> None: ...

class ExplainReadingsRequest(_message.Message):
    __slots__ = ("request_id", "utterance", "lfs", "format", "weights", "parameters", "time_limit_ms")
    class ParametersEntry(_message.Message):
        __slots__ = ("key", "value")
        KEY_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        key: str
        value: str
        def __init__(self, key: _Optional[str] = ..., value: _Optional[str] = ...) -> None: ...
    REQUEST_ID_FIELD_NUMBER: _ClassVar[int]
    UTTERANCE_FIELD_NUMBER: _ClassVar[int]
    LFS_FIELD_NUMBER: _ClassVar[int]
    FORMAT_FIELD_NUMBER: _ClassVar[int]
    WEIGHTS_FIELD_NUMBER: _ClassVar[int]
    PARAMETERS_FIELD_NUMBER: _ClassVar[int]
    TIME_LIMIT_MS_FIELD_NUMBER: _ClassVar[int]
    request_id: str
    utterance: str
    lfs: _containers.RepeatedScalarFieldContainer[str]
    format: LFFormat
    weights: _containers.RepeatedScalarFieldContainer[float]
    parameters: _containers.ScalarMap[str, str]
    time_limit_ms: int
    def __init__(self, request_id: _Optional[str] = ..., utterance: _Optional[str] = ..., lfs: _Optional[_Iterable[str]] = ..., format: _Optional[_Union[LFFormat, str]] = ..., weights: _Optional[_Iterable[float]] = ..., parameters: _Optional[_Mapping[str, str]] = ..., time_limit_ms: _Optional[int] = ...) -> None: ...

class ExplainedReading(_message.Message):
    __slots__ = ("lf", "paraphrase", "weight")
    LF_FIELD_NUMBER: _ClassVar[int]
    PARAPHRASE_FIELD_NUMBER: _ClassVar[int]
    WEIGHT_FIELD_NUMBER: _ClassVar[int]
    lf: str
    paraphrase: str
    weight: float
    def __init__(self, lf: _Optional[str] = ..., paraphrase: _Optional[str] = ..., weight: _Optional[float] = ...) -> None: ...

class Situation(_message.Message):
    __slots__ = ("holds", "fails", "domain", "constants", "facts", "description", "size", "searched_from", "bound")
    class ConstantsEntry(_message.Message):
        __slots__ = ("key", "value")
        KEY_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        key: str
        value: str
        def __init__(self, key: _Optional[str] = ..., value: _Optional[str] = ...) -> None: ...
    HOLDS_FIELD_NUMBER: _ClassVar[int]
    FAILS_FIELD_NUMBER: _ClassVar[int]
    DOMAIN_FIELD_NUMBER: _ClassVar[int]
    CONSTANTS_FIELD_NUMBER: _ClassVar[int]
    FACTS_FIELD_NUMBER: _ClassVar[int]
    DESCRIPTION_FIELD_NUMBER: _ClassVar[int]
    SIZE_FIELD_NUMBER: _ClassVar[int]
    SEARCHED_FROM_FIELD_NUMBER: _ClassVar[int]
    BOUND_FIELD_NUMBER: _ClassVar[int]
    holds: int
    fails: int
    domain: _containers.RepeatedScalarFieldContainer[str]
    constants: _containers.ScalarMap[str, str]
    facts: _containers.RepeatedScalarFieldContainer[str]
    description: str
    size: int
    searched_from: int
    bound: int
    def __init__(self, holds: _Optional[int] = ..., fails: _Optional[int] = ..., domain: _Optional[_Iterable[str]] = ..., constants: _Optional[_Mapping[str, str]] = ..., facts: _Optional[_Iterable[str]] = ..., description: _Optional[str] = ..., size: _Optional[int] = ..., searched_from: _Optional[int] = ..., bound: _Optional[int] = ...) -> None: ...

class ClarificationQuestion(_message.Message):
    __slots__ = ("text", "readings", "yes_no", "situation", "answers")
    class AnswersEntry(_message.Message):
        __slots__ = ("key", "value")
        KEY_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        key: str
        value: int
        def __init__(self, key: _Optional[str] = ..., value: _Optional[int] = ...) -> None: ...
    TEXT_FIELD_NUMBER: _ClassVar[int]
    READINGS_FIELD_NUMBER: _ClassVar[int]
    YES_NO_FIELD_NUMBER: _ClassVar[int]
    SITUATION_FIELD_NUMBER: _ClassVar[int]
    ANSWERS_FIELD_NUMBER: _ClassVar[int]
    text: str
    readings: _containers.RepeatedScalarFieldContainer[int]
    yes_no: str
    situation: int
    answers: _containers.ScalarMap[str, int]
    def __init__(self, text: _Optional[str] = ..., readings: _Optional[_Iterable[int]] = ..., yes_no: _Optional[str] = ..., situation: _Optional[int] = ..., answers: _Optional[_Mapping[str, int]] = ...) -> None: ...

class ExplainReadingsResponse(_message.Message):
    __slots__ = ("request_id", "readings", "situations", "question", "note", "quantifiers")
    REQUEST_ID_FIELD_NUMBER: _ClassVar[int]
    READINGS_FIELD_NUMBER: _ClassVar[int]
    SITUATIONS_FIELD_NUMBER: _ClassVar[int]
    QUESTION_FIELD_NUMBER: _ClassVar[int]
    NOTE_FIELD_NUMBER: _ClassVar[int]
    QUANTIFIERS_FIELD_NUMBER: _ClassVar[int]
    request_id: str
    readings: _containers.RepeatedCompositeFieldContainer[ExplainedReading]
    situations: _containers.RepeatedCompositeFieldContainer[Situation]
    question: ClarificationQuestion
    note: str
    quantifiers: str
    def __init__(self, request_id: _Optional[str] = ..., readings: _Optional[_Iterable[_Union[ExplainedReading, _Mapping]]] = ..., situations: _Optional[_Iterable[_Union[Situation, _Mapping]]] = ..., question: _Optional[_Union[ClarificationQuestion, _Mapping]] = ..., note: _Optional[str] = ..., quantifiers: _Optional[str] = ...) -> None: ...

class ChatMessage(_message.Message):
    __slots__ = ("role", "content")
    ROLE_FIELD_NUMBER: _ClassVar[int]
    CONTENT_FIELD_NUMBER: _ClassVar[int]
    role: str
    content: str
    def __init__(self, role: _Optional[str] = ..., content: _Optional[str] = ...) -> None: ...

class GenerateRequest(_message.Message):
    __slots__ = ("request_id", "messages", "max_new_tokens", "use_chat_template", "temperature", "top_p", "seed", "parameters", "format")
    class ParametersEntry(_message.Message):
        __slots__ = ("key", "value")
        KEY_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        key: str
        value: str
        def __init__(self, key: _Optional[str] = ..., value: _Optional[str] = ...) -> None: ...
    REQUEST_ID_FIELD_NUMBER: _ClassVar[int]
    MESSAGES_FIELD_NUMBER: _ClassVar[int]
    MAX_NEW_TOKENS_FIELD_NUMBER: _ClassVar[int]
    USE_CHAT_TEMPLATE_FIELD_NUMBER: _ClassVar[int]
    TEMPERATURE_FIELD_NUMBER: _ClassVar[int]
    TOP_P_FIELD_NUMBER: _ClassVar[int]
    SEED_FIELD_NUMBER: _ClassVar[int]
    PARAMETERS_FIELD_NUMBER: _ClassVar[int]
    FORMAT_FIELD_NUMBER: _ClassVar[int]
    request_id: str
    messages: _containers.RepeatedCompositeFieldContainer[ChatMessage]
    max_new_tokens: int
    use_chat_template: bool
    temperature: float
    top_p: float
    seed: int
    parameters: _containers.ScalarMap[str, str]
    format: LFFormat
    def __init__(self, request_id: _Optional[str] = ..., messages: _Optional[_Iterable[_Union[ChatMessage, _Mapping]]] = ..., max_new_tokens: _Optional[int] = ..., use_chat_template: _Optional[bool] = ..., temperature: _Optional[float] = ..., top_p: _Optional[float] = ..., seed: _Optional[int] = ..., parameters: _Optional[_Mapping[str, str]] = ..., format: _Optional[_Union[LFFormat, str]] = ...) -> None: ...

class GenerateResponse(_message.Message):
    __slots__ = ("request_id", "text", "prompt", "prompt_tokens", "new_tokens", "finish_reason", "model_id", "chat_template", "formula")
    REQUEST_ID_FIELD_NUMBER: _ClassVar[int]
    TEXT_FIELD_NUMBER: _ClassVar[int]
    PROMPT_FIELD_NUMBER: _ClassVar[int]
    PROMPT_TOKENS_FIELD_NUMBER: _ClassVar[int]
    NEW_TOKENS_FIELD_NUMBER: _ClassVar[int]
    FINISH_REASON_FIELD_NUMBER: _ClassVar[int]
    MODEL_ID_FIELD_NUMBER: _ClassVar[int]
    CHAT_TEMPLATE_FIELD_NUMBER: _ClassVar[int]
    FORMULA_FIELD_NUMBER: _ClassVar[int]
    request_id: str
    text: str
    prompt: str
    prompt_tokens: int
    new_tokens: int
    finish_reason: str
    model_id: str
    chat_template: bool
    formula: str
    def __init__(self, request_id: _Optional[str] = ..., text: _Optional[str] = ..., prompt: _Optional[str] = ..., prompt_tokens: _Optional[int] = ..., new_tokens: _Optional[int] = ..., finish_reason: _Optional[str] = ..., model_id: _Optional[str] = ..., chat_template: _Optional[bool] = ..., formula: _Optional[str] = ...) -> None: ...

class CheckEntailmentRequest(_message.Message):
    __slots__ = ("request_id", "premises", "conclusion", "format", "time_limit_ms", "parameters", "free_variables", "symbols")
    class ParametersEntry(_message.Message):
        __slots__ = ("key", "value")
        KEY_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        key: str
        value: str
        def __init__(self, key: _Optional[str] = ..., value: _Optional[str] = ...) -> None: ...
    REQUEST_ID_FIELD_NUMBER: _ClassVar[int]
    PREMISES_FIELD_NUMBER: _ClassVar[int]
    CONCLUSION_FIELD_NUMBER: _ClassVar[int]
    FORMAT_FIELD_NUMBER: _ClassVar[int]
    TIME_LIMIT_MS_FIELD_NUMBER: _ClassVar[int]
    PARAMETERS_FIELD_NUMBER: _ClassVar[int]
    FREE_VARIABLES_FIELD_NUMBER: _ClassVar[int]
    SYMBOLS_FIELD_NUMBER: _ClassVar[int]
    request_id: str
    premises: _containers.RepeatedScalarFieldContainer[str]
    conclusion: str
    format: LFFormat
    time_limit_ms: int
    parameters: _containers.ScalarMap[str, str]
    free_variables: FreeVariables
    symbols: Symbols
    def __init__(self, request_id: _Optional[str] = ..., premises: _Optional[_Iterable[str]] = ..., conclusion: _Optional[str] = ..., format: _Optional[_Union[LFFormat, str]] = ..., time_limit_ms: _Optional[int] = ..., parameters: _Optional[_Mapping[str, str]] = ..., free_variables: _Optional[_Union[FreeVariables, str]] = ..., symbols: _Optional[_Union[Symbols, str]] = ...) -> None: ...

class ProofStep(_message.Message):
    __slots__ = ("step", "depth", "clause", "source", "premise_index", "literal", "literals", "uses")
    STEP_FIELD_NUMBER: _ClassVar[int]
    DEPTH_FIELD_NUMBER: _ClassVar[int]
    CLAUSE_FIELD_NUMBER: _ClassVar[int]
    SOURCE_FIELD_NUMBER: _ClassVar[int]
    PREMISE_INDEX_FIELD_NUMBER: _ClassVar[int]
    LITERAL_FIELD_NUMBER: _ClassVar[int]
    LITERALS_FIELD_NUMBER: _ClassVar[int]
    USES_FIELD_NUMBER: _ClassVar[int]
    step: str
    depth: int
    clause: int
    source: str
    premise_index: int
    literal: str
    literals: _containers.RepeatedScalarFieldContainer[str]
    uses: _containers.RepeatedScalarFieldContainer[int]
    def __init__(self, step: _Optional[str] = ..., depth: _Optional[int] = ..., clause: _Optional[int] = ..., source: _Optional[str] = ..., premise_index: _Optional[int] = ..., literal: _Optional[str] = ..., literals: _Optional[_Iterable[str]] = ..., uses: _Optional[_Iterable[int]] = ...) -> None: ...

class FiniteModel(_message.Message):
    __slots__ = ("domain", "constants", "true_atoms", "functions", "extensions")
    class ConstantsEntry(_message.Message):
        __slots__ = ("key", "value")
        KEY_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        key: str
        value: str
        def __init__(self, key: _Optional[str] = ..., value: _Optional[str] = ...) -> None: ...
    class FunctionsEntry(_message.Message):
        __slots__ = ("key", "value")
        KEY_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        key: str
        value: str
        def __init__(self, key: _Optional[str] = ..., value: _Optional[str] = ...) -> None: ...
    DOMAIN_FIELD_NUMBER: _ClassVar[int]
    CONSTANTS_FIELD_NUMBER: _ClassVar[int]
    TRUE_ATOMS_FIELD_NUMBER: _ClassVar[int]
    FUNCTIONS_FIELD_NUMBER: _ClassVar[int]
    EXTENSIONS_FIELD_NUMBER: _ClassVar[int]
    domain: _containers.RepeatedScalarFieldContainer[str]
    constants: _containers.ScalarMap[str, str]
    true_atoms: _containers.RepeatedScalarFieldContainer[str]
    functions: _containers.ScalarMap[str, str]
    extensions: _containers.RepeatedCompositeFieldContainer[Extension]
    def __init__(self, domain: _Optional[_Iterable[str]] = ..., constants: _Optional[_Mapping[str, str]] = ..., true_atoms: _Optional[_Iterable[str]] = ..., functions: _Optional[_Mapping[str, str]] = ..., extensions: _Optional[_Iterable[_Union[Extension, _Mapping]]] = ...) -> None: ...

class CheckEntailmentResponse(_message.Message):
    __slots__ = ("request_id", "verdict", "premises_used", "proof", "countermodel", "model", "unknown_budget", "reason", "entailed", "refuted", "answered_by", "tstp", "reading_json")
    class AnsweredByEntry(_message.Message):
        __slots__ = ("key", "value")
        KEY_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        key: str
        value: str
        def __init__(self, key: _Optional[str] = ..., value: _Optional[str] = ...) -> None: ...
    class TstpEntry(_message.Message):
        __slots__ = ("key", "value")
        KEY_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        key: str
        value: str
        def __init__(self, key: _Optional[str] = ..., value: _Optional[str] = ...) -> None: ...
    REQUEST_ID_FIELD_NUMBER: _ClassVar[int]
    VERDICT_FIELD_NUMBER: _ClassVar[int]
    PREMISES_USED_FIELD_NUMBER: _ClassVar[int]
    PROOF_FIELD_NUMBER: _ClassVar[int]
    COUNTERMODEL_FIELD_NUMBER: _ClassVar[int]
    MODEL_FIELD_NUMBER: _ClassVar[int]
    UNKNOWN_BUDGET_FIELD_NUMBER: _ClassVar[int]
    REASON_FIELD_NUMBER: _ClassVar[int]
    ENTAILED_FIELD_NUMBER: _ClassVar[int]
    REFUTED_FIELD_NUMBER: _ClassVar[int]
    ANSWERED_BY_FIELD_NUMBER: _ClassVar[int]
    TSTP_FIELD_NUMBER: _ClassVar[int]
    READING_JSON_FIELD_NUMBER: _ClassVar[int]
    request_id: str
    verdict: EntailmentVerdict
    premises_used: _containers.RepeatedScalarFieldContainer[int]
    proof: _containers.RepeatedCompositeFieldContainer[ProofStep]
    countermodel: FiniteModel
    model: FiniteModel
    unknown_budget: str
    reason: str
    entailed: bool
    refuted: bool
    answered_by: _containers.ScalarMap[str, str]
    tstp: _containers.ScalarMap[str, str]
    reading_json: str
    def __init__(self, request_id: _Optional[str] = ..., verdict: _Optional[_Union[EntailmentVerdict, str]] = ..., premises_used: _Optional[_Iterable[int]] = ..., proof: _Optional[_Iterable[_Union[ProofStep, _Mapping]]] = ..., countermodel: _Optional[_Union[FiniteModel, _Mapping]] = ..., model: _Optional[_Union[FiniteModel, _Mapping]] = ..., unknown_budget: _Optional[str] = ..., reason: _Optional[str] = ..., entailed: _Optional[bool] = ..., refuted: _Optional[bool] = ..., answered_by: _Optional[_Mapping[str, str]] = ..., tstp: _Optional[_Mapping[str, str]] = ..., reading_json: _Optional[str] = ...) -> None: ...

class CheckEntailmentBatchRequest(_message.Message):
    __slots__ = ("request_id", "items")
    REQUEST_ID_FIELD_NUMBER: _ClassVar[int]
    ITEMS_FIELD_NUMBER: _ClassVar[int]
    request_id: str
    items: _containers.RepeatedCompositeFieldContainer[CheckEntailmentRequest]
    def __init__(self, request_id: _Optional[str] = ..., items: _Optional[_Iterable[_Union[CheckEntailmentRequest, _Mapping]]] = ...) -> None: ...

class CheckEntailmentBatchResult(_message.Message):
    __slots__ = ("index", "status", "response")
    INDEX_FIELD_NUMBER: _ClassVar[int]
    STATUS_FIELD_NUMBER: _ClassVar[int]
    RESPONSE_FIELD_NUMBER: _ClassVar[int]
    index: int
    status: _status_pb2.Status
    response: CheckEntailmentResponse
    def __init__(self, index: _Optional[int] = ..., status: _Optional[_Union[_status_pb2.Status, _Mapping]] = ..., response: _Optional[_Union[CheckEntailmentResponse, _Mapping]] = ...) -> None: ...
