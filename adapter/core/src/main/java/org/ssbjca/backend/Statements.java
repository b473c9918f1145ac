package org.ssbjca.backend;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

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
    private final Map<String, PreparedStatement> kept = new HashMap<>();

    /** @param connection the connection the statements run on */
    public Statements(Connection connection) {
        this.connection = connection;
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
        PreparedStatement ps = prepare(sql);
        try {
            Jdbc.bind(ps, params);
            try (ResultSet rs = ps.executeQuery()) {
                List<T> out = new ArrayList<>();
                while (rs.next()) {
                    out.add(mapper.map(rs));
                }
                return out;
            }
        } finally {
            release(sql, ps);
        }
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

    private PreparedStatement prepare(String sql) throws SQLException {
        PreparedStatement ps = kept.get(sql);
        if (ps != null) {
            return ps;
        }
        ps = Jdbc.customPlans(connection.prepareStatement(sql));
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
