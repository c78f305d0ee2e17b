#!/usr/bin/env python3
# Sums a PostgreSQL server log's statement durations per database and statement shape (literals
# and numbers replaced), longest first: where a benchmark's database time goes
# (docs/performance/platform.md, "Compute jobs", "Where PostgreSQL's time goes").
#   start=$(wc -l < /var/log/postgresql/postgresql-15-main.log)
#   psql -h 127.0.0.1 -U postgres -c "ALTER SYSTEM SET log_min_duration_statement = 0" \
#     -c "ALTER SYSTEM SET log_line_prefix = '%m [%p] %d '" -c "SELECT pg_reload_conf()"
#   BENCH_BACKENDS=postgres BENCH_SKIP_SCALE=1 BENCH_LATENCY_JOBS=10 npm run bench:jobs
#   psql -h 127.0.0.1 -U postgres -c "ALTER SYSTEM RESET log_min_duration_statement" \
#     -c "ALTER SYSTEM RESET log_line_prefix" -c "SELECT pg_reload_conf()"
#   python3 scripts/postgres/log-statements.py /var/log/postgresql/postgresql-15-main.log $start
import collections
import re
import sys

lines = open(sys.argv[1], errors='replace').read().split('\n')
start = int(sys.argv[2]) if len(sys.argv) > 2 else 0
rx = re.compile(r'^\S+ \S+ \S+ \[(\d+)\] (\S*) LOG:  duration: ([\d.]+) ms  (?:statement|execute [^:]*|parse [^:]*|bind [^:]*): (.*)$')
agg = collections.defaultdict(lambda: [0, 0.0])
cur = None
def flush():
    if cur:
        db, ms, sql = cur
        shape = re.sub(r'\s+', ' ', sql)
        shape = re.sub(r"'[^']*'", "'?'", shape)
        shape = re.sub(r'\b\d+\b', 'N', shape)[:160]
        a = agg[(db, shape)]; a[0] += 1; a[1] += ms
for l in lines[start:]:
    m = rx.match(l)
    if m:
        flush(); cur = (m.group(2), float(m.group(3)), m.group(4))
    elif l.startswith('\t') and cur:
        cur = (cur[0], cur[1], cur[2] + ' ' + l.strip())
    else:
        flush(); cur = None
flush()
bydb = collections.defaultdict(float)
for (db, _), (n, ms) in agg.items(): bydb[db] += ms
for db, ms in sorted(bydb.items(), key=lambda x: -x[1]): print(f'{db}: {ms:.0f} ms')
for (db, shape), (n, ms) in sorted(agg.items(), key=lambda x: -x[1][1])[:40]:
    print(f'{ms:9.1f} ms {n:6d} x {ms/n:7.3f}  {db[:24]:24} {shape}')
