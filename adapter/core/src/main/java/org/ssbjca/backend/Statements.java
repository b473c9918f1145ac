package org.ssbjca.backend;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.postgresql.core.BaseConnection;
import org.postgresql.core.TransactionState;
import org.postgresql.jdbc.AutoSave;

/**
 * The prepared statements of one connection, each prepared once and run again with new parameters, as
 * {@link Jdbc}'s helpers run them (docs/design/kept-statements.md). For one thread at a time, as a connection is; the
 * statements close with the connection, or at {@link #close}. Every result set is read to its end before the next
 * call, so one statement never serves two callers at once.
 */
public final class Statements {

    /** Statements kept at most; past that, further texts are prepared and closed each time. */
    private static final int MAX_KEPT = 256;

    private final Connection connection;
    /** pgjdbc's connection, when the statements run on one ({@link #beginsInItsWrite}); null otherwise. */
    private final BaseConnection pg;
    private final Map<String, PreparedStatement> kept = new HashMap<>();
    /** The texts run between settings, by their query: the same instance each time, so a lookup hashes it once. */
    private final Map<String, Between> betweens = new HashMap<>();

    /** @param connection the connection the statements run on */
    public Statements(Connection connection) {
        this.connection = connection;
        this.pg = connection instanceof BaseConnection b ? b : null;
    }

    /** Returns the connection the statements run on. */
    public Connection connection() {
        return connection;
    }

    /**
     * Returns the update count.
     *
     * @param sql statement
     * @param params parameters ({@link Jdbc#bind})
     * @throws SQLException on error
     */
    public int update(String sql, Object... params) throws SQLException {
        PreparedStatement ps = prepare(sql);
        try {
            Jdbc.bind(ps, params);
            return ps.executeUpdate();
        } finally {
            release(sql, ps);
        }
    }

    /**
     * Returns every row, mapped.
     *
     * @param sql query
     * @param mapper maps each row
     * @param params parameters ({@link Jdbc#bind})
     * @param <T> row type
     * @throws SQLException on error
     */
    public <T> List<T> list(String sql, Jdbc.RowMapper<T> mapper, Object... params) throws SQLException {
        return list(prepare(sql, true), sql, mapper, params);
    }

    /**
     * As {@link #list}, for a query whose plan is made under settings of its own: {@code before} sets them for the
     * rest of the transaction, the query runs, {@code after} restores them, all three in one round trip, so that no
     * other statement of the connection (the application's) runs under them. A query failure aborts the transaction,
     * which ends them too. The text is left to the server's plan cache, which settles on a generic plan after a few
     * executions, instead of being planned at each one ({@link Jdbc#customPlans}).
     * <p>
     * When the query would begin the connection's transaction on pgjdbc, its {@code BEGIN} goes in the same write
     * ({@link #beginsInItsWrite}).
     *
     * @param before a statement that returns one row, run first
     * @param sql the query
     * @param after a statement that returns one row, run last
     * @param mapper maps each of the query's rows
     * @param params the query's parameters ({@link Jdbc#bind}); {@code before} and {@code after} take none
     * @param <T> row type
     * @throws SQLException on error
     */
    public <T> List<T> listBetween(String before, String sql, String after, Jdbc.RowMapper<T> mapper,
            Object... params) throws SQLException {
        return between(before, sql, after, every(mapper), params);
    }

    /**
     * As {@link #first}, for a query whose plan is made under settings of its own, as {@link #listBetween} runs it.
     *
     * @param before a statement that returns one row, run first
     * @param sql the query (a statement that writes may be one, returning rows)
     * @param after a statement that returns one row, run last
     * @param mapper maps the query's first row
     * @param params the query's parameters ({@link Jdbc#bind}); {@code before} and {@code after} take none
     * @param <T> row type
     * @return the first row, mapped, or null when there is none
     * @throws SQLException on error
     */
    public <T> T firstBetween(String before, String sql, String after, Jdbc.RowMapper<T> mapper, Object... params)
            throws SQLException {
        return between(before, sql, after, rs -> rs.next() ? mapper.map(rs) : null, params);
    }

    /** Runs a query between its settings ({@link #listBetween}) and returns what {@code reader} read of its rows. */
    private <R> R between(String before, String sql, String after, Reader<R> reader, Object... params)
            throws SQLException {
        boolean begins = beginsInItsWrite();
        String text = text(before, sql, after, begins);
        PreparedStatement ps = prepare(text, false);
        try {
            Jdbc.bind(ps, params);
            if (begins) {
                executeBegun(ps);
                ps.getMoreResults(); // past the BEGIN's count: before's row
            } else {
                ps.execute(); // the first result: before's row
            }
            if (!ps.getMoreResults()) {
                throw new SQLException("no result from the query between its settings: " + sql);
            }
            R read;
            try (ResultSet rs = ps.getResultSet()) {
                read = reader.read(rs);
            }
            ps.getMoreResults(); // after's row, closed
            return read;
        } finally {
            release(text, ps);
        }
    }

    private <T> List<T> list(PreparedStatement ps, String sql, Jdbc.RowMapper<T> mapper, Object... params)
            throws SQLException {
        try {
            Jdbc.bind(ps, params);
            try (ResultSet rs = ps.executeQuery()) {
                return every(mapper).read(rs);
            }
        } finally {
            release(sql, ps);
        }
    }

    /** Returns a reader of every row, mapped. */
    private static <T> Reader<List<T>> every(Jdbc.RowMapper<T> mapper) {
        return rs -> {
            List<T> out = new ArrayList<>();
            while (rs.next()) {
                out.add(mapper.map(rs));
            }
            return out;
        };
    }

    /**
     * Returns the first row, mapped, or null when there is none.
     *
     * @param sql query
     * @param mapper maps the first row
     * @param params parameters ({@link Jdbc#bind})
     * @param <T> row type
     * @throws SQLException on error
     */
    public <T> T first(String sql, Jdbc.RowMapper<T> mapper, Object... params) throws SQLException {
        PreparedStatement ps = prepare(sql);
        try {
            Jdbc.bind(ps, params);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? mapper.map(rs) : null;
            }
        } finally {
            release(sql, ps);
        }
    }

    /**
     * Returns whether the query returned a row.
     *
     * @param sql query
     * @param params parameters ({@link Jdbc#bind})
     * @throws SQLException on error
     */
    public boolean exists(String sql, Object... params) throws SQLException {
        return first(sql, rs -> Boolean.TRUE, params) != null;
    }

    /**
     * As {@link #exists}, for a query whose answer is a hint rather than part of the transaction's work (whether a
     * queue has prioritised groups): when no transaction is open yet and the query would make pgjdbc begin one
     * ({@link #beginsInItsWrite}), it runs in a transaction of its own instead (the driver's auto-commit on for that
     * one call), so that the statement after it still begins the transaction in its own write and runs its one text
     * kept prepared ({@link #listBetween}). Otherwise it runs in the connection's transaction, as {@link #exists}. Its
     * answer is as of its own snapshot either way, which under read committed is the case anyway.
     *
     * @param sql query
     * @param params parameters ({@link Jdbc#bind})
     * @throws SQLException on error
     */
    public boolean existsAhead(String sql, Object... params) throws SQLException {
        if (!beginsInItsWrite()) {
            return exists(sql, params);
        }
        return autoCommitted(() -> exists(sql, params));
    }

    /**
     * Closes the statements kept, for a caller that goes on using the connection without them (a session in a
     * transaction of its own on a connection that outlives it); each is closed even if another fails.
     *
     * @throws SQLException the first failure to close one, the others suppressed in it
     */
    public void close() throws SQLException {
        SQLException failed = null;
        for (PreparedStatement ps : kept.values()) {
            try {
                ps.close();
            } catch (SQLException e) {
                if (failed == null) {
                    failed = e;
                } else {
                    failed.addSuppressed(e);
                }
            }
        }
        kept.clear();
        if (failed != null) {
            throw failed;
        }
    }

    /**
     * Returns whether the next statement would make pgjdbc begin the connection's transaction: auto-commit off and no
     * transaction open, as after an XA branch's start (pgjdbc up to 42.7.12 sends the branch's {@code BEGIN} with its
     * first statement) or a commit. pgjdbc would then send its {@code BEGIN} as a simple query and flush it alone, the
     * statement in a second write: PostgreSQL reads, answers and flushes each on its own, and the caller, when it
     * reads before the second answer is in, waits twice. Not when pgjdbc would begin otherwise: read only (its
     * {@code BEGIN READ ONLY}) or saving points ({@code autosave}).
     */
    private boolean beginsInItsWrite() throws SQLException {
        return pg != null && !pg.getAutoCommit() && pg.getTransactionState() == TransactionState.IDLE
                && pg.getAutosave() == AutoSave.NEVER && !pg.isReadOnly();
    }

    /**
     * Runs a text that begins with {@code BEGIN} ({@link #beginsInItsWrite}), all its statements in one write: pgjdbc
     * is told not to begin one itself (auto-commit on, for that one call: {@link #autoCommitted}; it then sees from
     * the server's answer that the transaction is open).
     */
    private void executeBegun(PreparedStatement ps) throws SQLException {
        autoCommitted(ps::execute);
    }

    /**
     * Makes one call with pgjdbc's auto-commit on, off again when it returns or throws, holding {@link #beginMonitor}
     * meanwhile, so that the adapter's XA connection does not complete the branch then, from another thread.
     */
    private <R> R autoCommitted(Call<R> call) throws SQLException {
        synchronized (beginMonitor(pg)) {
            pg.setAutoCommit(true);
            R result;
            try {
                result = call.run();
            } catch (SQLException | RuntimeException e) {
                try {
                    pg.setAutoCommit(false);
                } catch (SQLException | RuntimeException closed) {
                    e.addSuppressed(closed);
                }
                throw e;
            }
            pg.setAutoCommit(false);
            return result;
        }
    }

    /** A call on the connection. */
    @FunctionalInterface
    private interface Call<R> {
        R run() throws SQLException;
    }

    /**
     * Returns what a statement that carries its transaction's {@code BEGIN} holds while the driver's auto-commit is on
     * for it, and what the adapter's PostgreSQL XA connection holds to complete a branch: pgjdbc refuses to commit or
     * roll back while auto-commit is on. The driver's connection itself.
     *
     * @param connection pgjdbc's connection (not a handle)
     */
    public static Object beginMonitor(BaseConnection connection) {
        return connection;
    }

    /** Returns the three statements' text, put together once per query and settings; after a BEGIN when asked. */
    private String text(String before, String sql, String after, boolean begins) {
        Between b = betweens.get(sql);
        if (b == null || !b.before.equals(before) || !b.after.equals(after)) {
            String text = joined(before, sql, after);
            b = new Between(before, after, text, BEGIN + text);
            if (betweens.size() < MAX_KEPT) {
                betweens.put(sql, b);
            }
        }
        return begins ? b.begun : b.text;
    }

    /** What {@link #beginsInItsWrite} puts before the statements. */
    private static final String BEGIN = "BEGIN;\n";

    /**
     * Returns the one text {@link #listBetween} and {@link #firstBetween} send for a query between its settings:
     * three statements, whose results come in that order.
     *
     * @param before the statement run first
     * @param sql the query
     * @param after the statement run last
     */
    public static String joined(String before, String sql, String after) {
        return before + ";\n" + sql + ";\n" + after;
    }

    /** Reads what it needs of a result set, from before its first row. */
    @FunctionalInterface
    private interface Reader<R> {
        R read(ResultSet rs) throws SQLException;
    }

    /** A query's text between its settings, alone and after a {@code BEGIN}. */
    private record Between(String before, String after, String text, String begun) {
    }

    private PreparedStatement prepare(String sql) throws SQLException {
        return prepare(sql, true);
    }

    private PreparedStatement prepare(String sql, boolean customPlans) throws SQLException {
        PreparedStatement ps = kept.get(sql);
        if (ps != null) {
            return ps;
        }
        ps = connection.prepareStatement(sql);
        if (customPlans) {
            Jdbc.customPlans(ps);
        }
        if (kept.size() < MAX_KEPT) {
            kept.put(sql, ps);
        }
        return ps;
    }

    private void release(String sql, PreparedStatement ps) throws SQLException {
        if (kept.get(sql) != ps) {
            ps.close();
        }
    }
}
