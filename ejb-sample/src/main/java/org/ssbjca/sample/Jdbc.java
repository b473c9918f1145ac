package org.ssbjca.sample;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

/**
 * The few JDBC helpers the sample's own tables need. The statements are plain SQL that H2, PostgreSQL and SQL Server
 * all accept (no LIMIT/TOP: {@link #list(Connection, int, String, Row, Object...)} bounds rows with
 * {@code setMaxRows}). Failures become {@link IllegalStateException}, which rolls the container's transaction back.
 */
public final class Jdbc {

    /** Maps the current row of a result set. */
    @FunctionalInterface
    public interface Row<T> {
        /**
         * @param rs positioned on a row
         * @return the value of the row
         * @throws SQLException if a column cannot be read
         */
        T map(ResultSet rs) throws SQLException;
    }

    private Jdbc() {
    }

    /**
     * @param c the connection
     * @param sql an INSERT, UPDATE or DELETE with {@code ?} parameters
     * @param args the parameters: {@link Instant} and {@link UUID} are converted, everything else is bound as is
     * @return the update count
     */
    public static int update(Connection c, String sql, Object... args) {
        try (PreparedStatement ps = c.prepareStatement(sql)) {
            bind(ps, args);
            return ps.executeUpdate();
        } catch (SQLException e) {
            throw failed(sql, e);
        }
    }

    /**
     * @return every row, mapped
     */
    public static <T> List<T> list(Connection c, String sql, Row<T> row, Object... args) {
        return list(c, 0, sql, row, args);
    }

    /**
     * @param maxRows at most this many rows; 0 for all
     * @return the rows, mapped
     */
    public static <T> List<T> list(Connection c, int maxRows, String sql, Row<T> row, Object... args) {
        try (PreparedStatement ps = c.prepareStatement(sql)) {
            ps.setMaxRows(maxRows);
            bind(ps, args);
            List<T> out = new ArrayList<>();
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    out.add(row.map(rs));
                }
            }
            return out;
        } catch (SQLException e) {
            throw failed(sql, e);
        }
    }

    /**
     * @return the first row, mapped, or null when there is none
     */
    public static <T> T first(Connection c, String sql, Row<T> row, Object... args) {
        List<T> rows = list(c, 1, sql, row, args);
        return rows.isEmpty() ? null : rows.get(0);
    }

    /**
     * @return the first column of the first row as a long (0 when it is SQL NULL)
     */
    public static long count(Connection c, String sql, Object... args) {
        Long n = first(c, sql, rs -> rs.getLong(1), args);
        return n == null ? 0 : n;
    }

    /**
     * @param rs a row
     * @param column a TIMESTAMP column
     * @return its value, or null
     */
    public static Instant instant(ResultSet rs, String column) throws SQLException {
        Timestamp t = rs.getTimestamp(column);
        return t == null ? null : t.toInstant();
    }

    private static void bind(PreparedStatement ps, Object... args) throws SQLException {
        for (int i = 0; i < args.length; i++) {
            Object a = args[i];
            if (a instanceof Instant) {
                ps.setTimestamp(i + 1, Timestamp.from((Instant) a));
            } else if (a instanceof UUID) {
                ps.setString(i + 1, a.toString());
            } else {
                ps.setObject(i + 1, a);
            }
        }
    }

    private static IllegalStateException failed(String sql, SQLException e) {
        return new IllegalStateException(e.getMessage() + " [" + sql + "]", e);
    }
}
