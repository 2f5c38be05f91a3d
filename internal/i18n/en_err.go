package i18n

// enErr is the err part of the en catalog.
var enErr = catalogOf{
	ErrNoToken:         s("%[1]s: no Lichess token: run `threefold login --for bot`, or set lichess.token or THREEFOLD_LICHESS_TOKEN"),
	ErrNoTokenScopes:   s("%[1]s: no Lichess token: run `threefold login --for bot`, or set lichess.token or THREEFOLD_LICHESS_TOKEN (a token with the bot:play and challenge:read scopes)"),
	ErrScope:           s("lichess: %[1]s: the token lacks the %[2]q scope: run `threefold login --for %[3]s`, or create a token with it at %[4]s"),
	ErrTokenRejected:   s("lichess: %[1]s: token rejected (HTTP %[2]s): invalid, expired or revoked"),
	ErrNoSuchFile:      s("%[1]s: no such file"),
	ErrNoSuchPath:      s("%[1]q: no such file or folder"),
	ErrUnknownKeys:     s("config %[1]s: unknown key(s): %[2]s (config.example.yaml lists every key)"),
	ErrUnknownEntryKey: s("%[1]s[%[2]s]: unknown key %[3]s (an entry has %[4]s)"),
	CtxConfig:          s("config %[1]s"),
	CtxStore:           s("store"),
	CtxWrite:           s("write"),
	CtxReadAnswer:      s("read the answer"),
	CtxCancel:          s("cancel %[1]s"),
	CtxNewTokenFails:   s("the new token does not work"),
	CtxSaveToken:       s("save the token"),
	CtxTokenKept:       s("the token was kept in %[1]s"),
	CtxSavedToken:      s("the token saved by threefold login"),
	CtxNoConfigDir:     s("no user config directory (use --token-file)"),
	CtxStudyRead:       s("; run `threefold login --for watch` for a token with study:read"),
}
