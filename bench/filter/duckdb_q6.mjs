// TPC-H Q6 in DuckDB on the rows filter_bench generates (bench/filter/lineitem_csv writes them),
// the table in memory, for a side-by-side with the filter's CPU backend (bench/filter/q6_vs_duckdb).
// Not part of the test suite; needs `npm install @duckdb/node-api` (run from the folder holding
// node_modules, or set NODE_PATH).
//   node duckdb_q6.mjs LINEITEM.csv THREADS REPEATS
import { DuckDBInstance } from '@duckdb/node-api';

const [csv, threads = '2', repeats = '9'] = process.argv.slice(2);
if (!csv) {
  console.error('usage: node duckdb_q6.mjs LINEITEM.csv [THREADS] [REPEATS]');
  process.exit(2);
}
const instance = await DuckDBInstance.create(':memory:', { threads });
const db = await instance.connect();
await db.run(`CREATE TABLE lineitem AS SELECT * FROM read_csv('${csv}', header = true, columns = {
  'l_quantity': 'DECIMAL(15,2)', 'l_extendedprice': 'DECIMAL(15,2)', 'l_discount': 'DECIMAL(15,2)',
  'l_shipdate': 'DATE'})`);
const q6 = `SELECT sum(l_extendedprice * l_discount) AS revenue, count(*) AS n FROM lineitem
  WHERE l_shipdate >= DATE '1994-01-01' AND l_shipdate < DATE '1995-01-01'
    AND l_discount BETWEEN 0.05 AND 0.07 AND l_quantity < 24`;
const times = [];
let answer;
for (let r = 0; r <= Number(repeats); ++r) {
  const start = process.hrtime.bigint();
  const reader = await db.runAndReadAll(q6);
  const ms = Number(process.hrtime.bigint() - start) / 1e6;
  if (r > 0) times.push(ms);  // the first run is a warm-up
  answer = reader.getRowObjectsJS()[0];
}
times.sort((a, b) => a - b);
const rows = (await db.runAndReadAll('SELECT count(*) AS n FROM lineitem')).getRowObjectsJS()[0].n;
console.log(JSON.stringify({ engine: 'duckdb', threads: Number(threads), rows: String(rows),
  median_ms: times[Math.floor(times.length / 2)], min_ms: times[0], max_ms: times[times.length - 1],
  revenue: String(answer.revenue), selected: String(answer.n) }));
