package org.ssbjca.bench;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Locale;

/**
 * What PostgreSQL counts of its transactions and its WAL, read before and after a run of the one-database phase:
 * transactions committed in the database ({@code pg_stat_database.xact_commit}), PREPARE TRANSACTION statements run
 * ({@code pg_stat_statements}, whose PostgreSQL 17 folds the transaction ids into one entry), WAL flushes and writes
 * ({@code pg_stat_wal.wal_sync}, {@code wal_write}: the server's fsyncs and writes of the WAL) and WAL records.
 * Backends report the cumulative statistics late (an idle one within about 10 s), so {@link #settled} reads until
 * they stop moving.
 *
 * @param commits transactions committed
 * @param prepares PREPARE TRANSACTION statements
 * @param walSyncs WAL flushes
 * @param walWrites WAL writes
 * @param walRecords WAL records
 */
record PgCounters(long commits, long prepares, long walSyncs, long walWrites, long walRecords) {

    /** How long the counters must stay still to count as settled: longer than an idle backend's report delay. */
    private static final long STILL_MILLIS = 11_000;
    private static final long SETTLE_MAX_MILLIS = 60_000;

    /** @return the counters now, read in one statement (one transaction, which the next read counts) */
    static PgCounters read(BenchPostgres pg) throws SQLException {
        try (Connection c = pg.connect(); Statement s = c.createStatement();
                ResultSet rs = s.executeQuery("SELECT (SELECT xact_commit FROM pg_stat_database"
                        + " WHERE datname = current_database()), (SELECT COALESCE(SUM(calls), 0)"
                        + " FROM pg_stat_statements WHERE query ILIKE 'PREPARE TRANSACTION%'), wal_sync, wal_write,"
                        + " wal_records FROM pg_stat_wal")) {
            rs.next();
            return new PgCounters(rs.getLong(1), rs.getLong(2), rs.getLong(3), rs.getLong(4), rs.getLong(5));
        }
    }

    /** @return the counters once two reads {@value #STILL_MILLIS} ms apart agree on the writes (at most a minute) */
    static PgCounters settled(BenchPostgres pg) throws SQLException, InterruptedException {
        long deadline = System.currentTimeMillis() + SETTLE_MAX_MILLIS;
        PgCounters last = read(pg);
        while (System.currentTimeMillis() < deadline) {
            Thread.sleep(STILL_MILLIS);
            PgCounters now = read(pg);
            if (now.stillSince(last)) {
                return now;
            }
            last = now;
        }
        return last;
    }

    /**
     * Whether nothing that writes moved: the commits are left out, as the reads themselves and the pool's idle
     * connections commit read-only transactions now and then.
     */
    private boolean stillSince(PgCounters o) {
        return prepares == o.prepares && walSyncs == o.walSyncs && walWrites == o.walWrites
                && walRecords == o.walRecords;
    }

    /** @return the counts from {@code before} to this, per message */
    PerMessage perMessageSince(PgCounters before, long messages) {
        double n = messages;
        return new PerMessage((commits - before.commits) / n, (prepares - before.prepares) / n,
                (walSyncs - before.walSyncs) / n, (walWrites - before.walWrites) / n,
                (walRecords - before.walRecords) / n);
    }

    /** The counts of one run, per message: the fields as {@link PgCounters}'s. */
    record PerMessage(double commits, double prepares, double walSyncs, double walWrites, double walRecords) {

        /** @return the counts as a report note */
        String text() {
            return String.format(Locale.ROOT, "per message: %.2f transactions committed, %.2f PREPARE TRANSACTION,"
                    + " %.2f WAL flushes (wal_sync), %.2f WAL writes, %.1f WAL records", commits, prepares, walSyncs,
                    walWrites, walRecords);
        }
    }
}
