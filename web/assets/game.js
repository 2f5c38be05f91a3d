'use strict';
// The game page: the move list with every occurrence of a repeated position
// marked, and the board at any ply.
(() => {
  const key = new URLSearchParams(location.search).get('key') || '';
  document.getElementById('back').href = TF.withToken('./');
  let g = null;      // the full view
  let cur = -1;      // the ply shown
  let live = true;   // follow the last ply
  const seen = new Set();
  const $ = (id) => document.getElementById(id);

  function show(ply) {
    if (!g) return;
    cur = Math.max(0, Math.min(ply, g.ply));
    live = cur === g.ply && live;
    $('live').classList.toggle('on', live);
    $('board').innerHTML = TF.board(g.fens[cur], { last: g.uci[cur] });
    $('board').dataset.ply = cur;
    const occ = g.occ[cur], grp = g.group[cur];
    let txt = '<b>' + TF.esc(TF.moveLabel(cur, g.san[cur], g.start_fen)) + '</b> · ply ' + cur;
    if (grp >= 0) {
      const plies = g.repeated[grp];
      txt += ' · <span class="mk g' + (grp % 8) + '">' + occ + '</span> ' + TF.ordinal(occ) + ' of ' + plies.length +
        ' occurrences (plies ' + plies.join(', ') + ')';
    } else {
      txt += ' · this position occurs once';
    }
    $('at').innerHTML = txt;
    document.querySelectorAll('#moves .mv.cur').forEach((e) => e.classList.remove('cur'));
    const el = document.querySelector('#moves .mv[data-ply="' + cur + '"]');
    if (el) { el.classList.add('cur'); if (!live) el.scrollIntoView({ block: 'nearest' }); }
  }

  function renderMoves() {
    let h = '<span class="mv start" data-ply="0">start' + mark(0) + '</span>';
    for (let p = 1; p <= g.ply; p++) {
      const mn = TF.moveNo(p, g.start_fen);
      if (mn.white) h += '<span class="num">' + mn.n + '.</span>';
      else if (p === 1) h += '<span class="num">' + mn.n + '…</span><span></span>';
      h += '<span class="mv" data-ply="' + p + '">' + TF.esc(g.san[p]) + mark(p) + '</span>';
    }
    $('moves').innerHTML = h;
    const box = $('moves');
    if (live) box.scrollTop = box.scrollHeight;
  }

  function mark(p) {
    const grp = g.group[p];
    if (grp < 0) return '';
    const o = g.occ[p];
    return '<sup class="mk g' + (grp % 8) + (o >= 5 ? ' o5' : o >= 3 ? ' o3' : '') + '" title="' +
      TF.ordinal(o) + ' occurrence">' + o + '</sup>';
  }

  function renderInfo() {
    document.title = 'threefold — ' + (g.game.white || 'White') + ' – ' + (g.game.black || 'Black');
    $('title').textContent = (g.source || g.game.site) + ' · ' + g.game.id;
    $('players').innerHTML = TF.players(g) + (/^https?:\/\//i.test(g.game.url || '') ? ' <a class="ext" href="' + TF.esc(g.game.url) + '" rel="noreferrer" target="_blank">open ↗</a>' : '');
    const cc = TF.countClass(g.count);
    $('now').innerHTML = '<h3>Now</h3><div class="now-row"><span class="count big ' + cc + '">×' + g.count + '</span>' +
      '<div><div>' + TF.esc(TF.moveLabel(g.ply, g.last_san, g.start_fen)) + ', ' + TF.esc(g.turn) + ' to move</div>' +
      '<div class="muted">current position occurred at plies ' + (g.occurrences || []).join(', ') + '</div></div></div>' +
      '<div class="claims">' + TF.claims(g) + '</div>' +
      (g.status === 'finished' ? '<div class="status st-finished">finished ' + TF.esc(g.result || '') + '</div>' : '') +
      (g.attention ? '<div class="status st-attention">' + TF.esc(g.attention) + '</div>' : '') +
      (g.delay_s ? '<div class="muted">source delay up to ' + Math.round(g.delay_s) + ' s</div>' : '');
    const rep = $('repeated');
    rep.innerHTML = g.repeated.length ? '' : '<li class="empty">No position has occurred twice yet.</li>';
    g.repeated.forEach((plies, i) => {
      const li = document.createElement('li');
      li.innerHTML = '<span class="mk g' + (i % 8) + '">×' + plies.length + '</span> ' +
        plies.map((p) => '<a href="#' + p + '" data-ply="' + p + '">' + TF.esc(TF.moveLabel(p, g.san[p], g.start_fen)) + '</a>').join(' · ');
      rep.appendChild(li);
    });
  }

  function update(v) {
    if (!v || v.key !== key || !v.fens) return;
    g = v;
    renderInfo();
    renderMoves();
    if (cur < 0) {
      const h = parseInt(location.hash.slice(1), 10);
      if (!isNaN(h) && h >= 0 && h <= g.ply) { live = h === g.ply; show(h); return; }
    }
    show(live ? g.ply : cur);
  }

  function addAlert(a, fresh) {
    if ((a.game.site + '/' + a.game.id) !== key || seen.has(a.id)) return;
    seen.add(a.id);
    $('no-alerts').hidden = true;
    const li = TF.alertItem(a);
    if (fresh) li.classList.add('fresh');
    li.querySelector('.a-game a').addEventListener('click', (e) => { e.preventDefault(); live = false; show(a.ply); });
    $('alerts').insertBefore(li, $('alerts').firstChild);
    TF.markWithdrawn($('alerts'), a);
  }

  document.addEventListener('click', (e) => {
    const t = e.target.closest('[data-ply]');
    if (!t || !g || t.id === 'board') return;
    e.preventDefault();
    live = false;
    show(parseInt(t.dataset.ply, 10));
  });
  $('first').onclick = () => { live = false; show(0); };
  $('prev').onclick = () => { live = false; show(cur - 1); };
  $('next').onclick = () => { live = false; show(cur + 1); };
  $('last').onclick = () => { live = false; show(g ? g.ply : 0); };
  $('live').onclick = () => { live = true; show(g ? g.ply : 0); };
  document.addEventListener('keydown', (e) => {
    if (!g) return;
    if (e.key === 'ArrowLeft') { live = false; show(cur - 1); }
    else if (e.key === 'ArrowRight') { live = false; show(cur + 1); }
    else if (e.key === 'Home') { live = false; show(0); }
    else if (e.key === 'End') { live = true; show(g.ply); }
  });

  TF.connect('?game=' + encodeURIComponent(key), (m) => {
    switch (m.type) {
      case 'hello':
        if (m.game) update(m.game);
        else if (!g) $('at').textContent = 'Waiting for this game…';
        (m.alerts || []).forEach((a) => addAlert(a, false));
        break;
      case 'game': update(m.game); break;
      case 'alert': addAlert(m.alert, true); break;
    }
  }, TF.setConn);
})();
