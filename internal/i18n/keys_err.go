package i18n

// the errors a user acts on (cmd/threefold): said in the user's language when printed.
const (
	ErrNoToken         Key = "err.no_token"
	ErrNoTokenScopes   Key = "err.no_token_scopes"
	ErrScope           Key = "err.scope"
	ErrTokenRejected   Key = "err.token_rejected"
	ErrNoSuchFile      Key = "err.no_such_file"
	ErrNoSuchPath      Key = "err.no_such_path"
	ErrUnknownKeys     Key = "err.unknown_keys"
	ErrUnknownEntryKey Key = "err.unknown_entry_key"
)

// Warnings and refusals a user acts on.
const (
	WarnConfigSecrets Key = "warn.config_secrets" // %[1]s file, %[2]s keys, %[3]s who may read it, %[4]s its mode
	WhoGroup          Key = "warn.who_group"
	WhoGroupAndOthers Key = "warn.who_group_and_others"
	WhoOthers         Key = "warn.who_others"
	ErrNotConfirmed   Key = "err.not_confirmed"   // bot upgrade: the question was not answered yes
	WarnExportPartial Key = "warn.export_partial" // %[1]s the move error
)

// The context an error is wrapped in (fmt.Errorf("login: save the token:
// %w", err)), said in the user's language around a translated error: each
// part between ": " that is one of these is said, the others (command
// names, flags, paths) are kept.
const (
	CtxConfig        Key = "ctx.config" // %[1]s the config file
	CtxStore         Key = "ctx.store"
	CtxWrite         Key = "ctx.write"
	CtxReadAnswer    Key = "ctx.read_answer"
	CtxCancel        Key = "ctx.cancel" // %[1]s the challenge id
	CtxNewTokenFails Key = "ctx.new_token_fails"
	CtxSaveToken     Key = "ctx.save_token"
	CtxTokenKept     Key = "ctx.token_kept" // %[1]s the token file
	CtxSavedToken    Key = "ctx.saved_token"
	CtxNoConfigDir   Key = "ctx.no_config_dir"
	CtxStudyRead     Key = "ctx.study_read" // said after the error
)

// ContextKeys lists the contexts.
var ContextKeys = []Key{CtxConfig, CtxStore, CtxWrite, CtxReadAnswer, CtxCancel, CtxNewTokenFails, CtxSaveToken,
	CtxTokenKept, CtxSavedToken, CtxNoConfigDir, CtxStudyRead}
