package i18n

// trErr is the err part of the tr catalog.
var trErr = catalogOf{
	ErrNoToken:         s("%[1]s: Lichess belirteci yok: `threefold login --for bot` çalıştırın ya da lichess.token veya THREEFOLD_LICHESS_TOKEN ayarlayın"),
	ErrNoTokenScopes:   s("%[1]s: Lichess belirteci yok: `threefold login --for bot` çalıştırın ya da lichess.token veya THREEFOLD_LICHESS_TOKEN ayarlayın (bot:play ve challenge:read izinli bir belirteç)"),
	ErrScope:           s("lichess: %[1]s: belirtecin %[2]q izni yok: `threefold login --for %[3]s` çalıştırın ya da bu izinle bir belirteç oluşturun: %[4]s"),
	ErrTokenRejected:   s("lichess: %[1]s: belirteç reddedildi (HTTP %[2]s): geçersiz, süresi dolmuş ya da iptal edilmiş"),
	ErrNoSuchFile:      s("%[1]s: böyle bir dosya yok"),
	ErrNoSuchPath:      s("%[1]q: böyle bir dosya ya da klasör yok"),
	ErrUnknownKeys:     s("config %[1]s: bilinmeyen anahtar(lar): %[2]s (config.example.yaml tüm anahtarları listeler)"),
	ErrUnknownEntryKey: s("%[1]s[%[2]s]: bilinmeyen anahtar %[3]s (bir girdide %[4]s olur)"),
	CtxConfig:          s("yapılandırma dosyası %[1]s"),
	CtxStore:           s("depo"),
	CtxWrite:           s("yazma"),
	CtxReadAnswer:      s("yanıtı okuma"),
	CtxCancel:          s("iptal: %[1]s"),
	CtxNewTokenFails:   s("yeni belirteç çalışmıyor"),
	CtxSaveToken:       s("belirteci kaydetme"),
	CtxTokenKept:       s("belirteç şu dosyada kaldı: %[1]s"),
	CtxSavedToken:      s("threefold login ile kaydedilen belirteç"),
	CtxNoConfigDir:     s("kullanıcı yapılandırma klasörü yok (--token-file kullanın)"),
	CtxStudyRead:       s("; study:read izinli bir belirteç için `threefold login --for watch` çalıştırın"),
}
