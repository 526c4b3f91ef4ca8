// kolradar community pages: the little the page does with script. Everything reads without it;
// this adds sorting by a column header (click or Enter). Served as a file: the page's CSP allows no inline script.

(() => {
  /** A cell's figure for sorting: "2.1x", "62%", "1,234", "$1.2M"; text otherwise. */
  function figureOf(cell) {
    var text = (cell.textContent || '').trim();
    var m = /-?[\d.,]+/.exec(text.replace(/\s/g, ''));
    if (!m) return { n: null, s: text.toLowerCase() };
    var n = Number(m[0].replace(/,/g, ''));
    var unit = /([KMB])\b/.exec(text);
    if (unit) n *= unit[1] === 'K' ? 1e3 : unit[1] === 'M' ? 1e6 : 1e9;
    return { n: Number.isFinite(n) ? n : null, s: text.toLowerCase() };
  }
  function sortBy(table, index, header) {
    var body = table.tBodies[0];
    if (!body) return;
    var descending = header.getAttribute('aria-sort') !== 'descending';
    var rows = Array.prototype.slice.call(body.rows);
    rows.sort((a, b) => {
      var x = figureOf(a.cells[index]);
      var y = figureOf(b.cells[index]);
      var d = x.n !== null && y.n !== null ? x.n - y.n : x.s.localeCompare(y.s);
      return descending ? -d : d;
    });
    rows.forEach((r) => {
      body.appendChild(r);
    });
    Array.prototype.forEach.call(table.tHead.rows[0].cells, (th) => {
      th.removeAttribute('aria-sort');
    });
    header.setAttribute('aria-sort', descending ? 'descending' : 'ascending');
  }
  document.querySelectorAll('table').forEach((table) => {
    if (!table.tHead || !table.tBodies[0] || table.tBodies[0].rows.length < 2) return;
    Array.prototype.forEach.call(table.tHead.rows[0].cells, (th, i) => {
      th.setAttribute('data-sortable', '');
      th.tabIndex = 0;
      th.addEventListener('click', () => {
        sortBy(table, i, th);
      });
      th.addEventListener('keydown', (e) => {
        if (e.key === 'Enter' || e.key === ' ') {
          e.preventDefault();
          sortBy(table, i, th);
        }
      });
    });
  });
})();
