'use strict';
// The index: every game with its live board, and the alert feed.
(() => {
  const gamesEl = document.getElementById('games');
  const alertsEl = document.getElementById('alerts');
  const cards = new Map(); // key -> card element
  const seenAlerts = new Set();
  const hideFinished = document.getElementById('hide-finished');
  hideFinished.addEventListener('change', () => gamesEl.classList.toggle('hide-finished', hideFinished.checked));

  function render(g) {
    let card = cards.get(g.key);
    if (!card) {
      card = document.createElement('a');
      card.className = 'card';
      card.dataset.key = g.key;
      card.href = TF.withToken('game?key=' + encodeURIComponent(g.key));
      cards.set(g.key, card);
      const keys = [...cards.keys()].sort();
      const next = cards.get(keys[keys.indexOf(g.key) + 1]);
      gamesEl.insertBefore(card, next || null);
      document.getElementById('no-games').hidden = true;
      document.getElementById('ngames').textContent = '(' + cards.size + ')';
    }
    card.dataset.ply = g.ply;
    card.dataset.count = g.count;
    card.classList.toggle('finished', g.status === 'finished');
    card.classList.toggle('alerting', g.count >= 3 || g.fivefold);
    const cc = TF.countClass(g.count);
    card.innerHTML =
      '<div class="card-board" dir="ltr">' + TF.board(g.fen, { last: g.last_move, coords: false }) + '</div>' +
      '<div class="card-body">' +
      '<div class="players">' + TF.players(g) + '</div>' +
      '<div class="meta"><span class="ply">' + TF.ltr(TF.moveLabel(g.ply, g.last_san, g.start_fen)) + '</span>' +
      '<span class="count ' + cc + '" title="' + TF.esc(TF.T('web.count_title')) + '" dir="ltr">×' + g.count + '</span></div>' +
      '<div class="claims">' + TF.claims(g) + '</div>' +
      '<div class="foot"><span class="src"><bdi>' + TF.esc(TF.sourceName(g.source) || g.game.site) + '</bdi></span>' +
      (g.status !== 'playing' ? '<span class="status st-' + TF.esc(g.status) + '">' + TF.esc(g.status === 'finished' ? (g.result || TF.T('web.finished')) : TF.T('web.needs_attention')) + '</span>' : '') +
      (g.site_result ? '<span class="site-result" title="' + TF.esc(TF.T('web.site_result_title', g.game.site)) + '"><bdi>' + TF.esc(g.game.site + ': ' + TF.rephrase(g.site_result, 'site.')) + '</bdi></span>' : '') +
      (g.max_count >= 2 ? '<span class="maxc">' + TF.esc(TF.T('web.max_count', g.max_count)) + '</span>' : '') +
      '</div></div>';
  }

  function addAlert(a, live) {
    if (seenAlerts.has(a.id)) return;
    seenAlerts.add(a.id);
    document.getElementById('no-alerts').hidden = true;
    const li = TF.alertItem(a);
    if (live) li.classList.add('fresh');
    alertsEl.insertBefore(li, alertsEl.firstChild);
    TF.markWithdrawn(alertsEl, a);
    while (alertsEl.children.length > 201) alertsEl.removeChild(alertsEl.lastChild);
    document.getElementById('nalerts').textContent = '(' + seenAlerts.size + ')';
    const card = cards.get((a.game.site || '') + '/' + (a.game.id || ''));
    if (card && live) { card.classList.remove('flash'); void card.offsetWidth; card.classList.add('flash'); }
  }

  function sources(list) {
    const el = document.getElementById('sources');
    el.innerHTML = (list || []).map((s) => '<span class="chip ' + (s.connected ? 'ok' : 'down') + '" title="' +
      TF.esc(s.error || (s.connected ? TF.T('web.connected') : TF.T('web.not_connected'))) + '"><bdi>' + TF.esc(TF.sourceName(s.name)) + '</bdi></span>').join('');
    boards(list || []);
  }

  // bot shows the bot's account when the bot runs: its name, its rating in
  // each category it has one in, its record (+wins =draws −losses) and
  // the games it plays.
  const speeds = ['ultraBullet', 'bullet', 'blitz', 'rapid', 'classical', 'correspondence'];
  function bot(b) {
    const el = document.getElementById('bot');
    el.hidden = !b;
    if (!b) return;
    const name = b.url ? '<a href="' + TF.esc(b.url) + '" rel="noopener noreferrer" target="_blank"><bdi>' + TF.esc(b.account) + '</bdi></a>' : '<bdi>' + TF.esc(b.account) + '</bdi>';
    const ratings = speeds.filter((s) => b.ratings && b.ratings[s] > 0)
      .map((s) => '<span class="rating" data-speed="' + s + '">' + TF.esc(TF.T('web.speed.' + s)) + ' ' + TF.ltr(String(b.ratings[s])) + '</span>').join('');
    el.innerHTML = '<span class="bot-name">' + name + '</span>' + ratings +
      '<span class="record">' + TF.ltr('+' + b.wins + ' =' + b.draws + ' −' + b.losses) + '</span>' +
      '<span class="playing">' + TF.esc(TF.T('web.bot_playing', b.playing)) + '</span>';
  }

  // boards shows the e-boards of the sources that follow them: each with
  // its state, why it fails, the pieces on it and its game.
  function boards(list) {
    const all = [];
    list.forEach((s) => (s.boards || []).forEach((b) => all.push(b)));
    document.getElementById('boards-wrap').hidden = all.length === 0;
    const failing = all.filter((b) => !healthy(b)).length;
    document.getElementById('nboards').textContent = '(' + all.length + (failing ? TF.T('list.sep') + TF.T('web.failing', failing) : '') + ')';
    document.getElementById('boards').innerHTML = all.map((b) => {
      const ok = healthy(b);
      const game = b.game ? '<a href="' + TF.esc(TF.withToken('game?key=' + encodeURIComponent('dgt/' + b.game))) + '">' + TF.esc(TF.T('web.board_game')) + '</a>' : '';
      const seen = b.last_seen ? new Date(b.last_seen) : null;
      return '<div class="eboard ' + (ok ? 'ok' : 'failing') + '" data-serial="' + TF.esc(b.serial) + '">' +
        '<div class="eboard-board" dir="ltr">' + TF.board(b.placement || '8/8/8/8/8/8/8/8', { coords: false }) + '</div>' +
        '<div class="eboard-body"><div class="eboard-name">' + (b.board ? TF.esc(TF.T('web.board_n', b.board)) : '') + TF.esc(TF.T('web.serial', b.serial)) + '</div>' +
        '<div class="chip ' + (ok ? 'ok' : 'down') + '">' + TF.esc(b.state || TF.T('web.not_activated')) + (b.followed ? '' : TF.esc(TF.T('web.not_followed'))) + '</div>' +
        (b.failing ? '<div class="eboard-why">' + TF.esc(b.failing) + '</div>' : '') +
        '<div class="eboard-foot">' + game + (seen && !isNaN(seen) && seen.getFullYear() > 1970 ? ' <span class="muted">' + TF.esc(TF.T('web.last_message', TF.timeText(seen))) + '</span>' : '') + '</div>' +
        '</div></div>';
    }).join('');
  }

  function healthy(b) { return b.followed && !b.failing && b.state === 'ACTIVE'; }

  TF.connect('', (m) => {
    switch (m.type) {
      case 'hello':
        (m.games || []).forEach(render);
        (m.alerts || []).forEach((a) => addAlert(a, false));
        sources(m.sources);
        bot(m.bot);
        break;
      case 'game': render(m.game); break;
      case 'alert': addAlert(m.alert, true); break;
      case 'sources': sources(m.sources); break;
      case 'bot': bot(m.bot); break;
    }
  }, TF.setConn);
})();
