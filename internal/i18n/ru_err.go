package i18n

// ruErr is the err part of the ru catalog.
var ruErr = catalogOf{
	ErrNoToken:         s("%[1]s: нет токена Lichess: выполните `threefold login --for bot` или задайте lichess.token или THREEFOLD_LICHESS_TOKEN"),
	ErrNoTokenScopes:   s("%[1]s: нет токена Lichess: выполните `threefold login --for bot` или задайте lichess.token или THREEFOLD_LICHESS_TOKEN (токен с разрешениями bot:play и challenge:read)"),
	ErrScope:           s("lichess: %[1]s: у токена нет разрешения %[2]q: выполните `threefold login --for %[3]s` или создайте токен с этим разрешением: %[4]s"),
	ErrTokenRejected:   s("lichess: %[1]s: токен отклонён (HTTP %[2]s): недействителен, истёк или отозван"),
	ErrNoSuchFile:      s("%[1]s: нет такого файла"),
	ErrNoSuchPath:      s("%[1]q: нет такого файла или папки"),
	ErrUnknownKeys:     s("config %[1]s: неизвестные ключи: %[2]s (все ключи перечислены в config.example.yaml)"),
	ErrUnknownEntryKey: s("%[1]s[%[2]s]: неизвестный ключ %[3]s (у записи есть ключи %[4]s)"),
	CtxConfig:          s("файл настроек %[1]s"),
	CtxStore:           s("хранилище"),
	CtxWrite:           s("запись"),
	CtxReadAnswer:      s("чтение ответа"),
	CtxCancel:          s("отмена %[1]s"),
	CtxNewTokenFails:   s("новый токен не работает"),
	CtxSaveToken:       s("сохранение токена"),
	CtxTokenKept:       s("токен остался в %[1]s"),
	CtxSavedToken:      s("токен, сохранённый threefold login"),
	CtxNoConfigDir:     s("нет папки настроек пользователя (используйте --token-file)"),
	CtxStudyRead:       s("; выполните `threefold login --for watch`, чтобы получить токен с разрешением study:read"),
}
