package org.ssbjca.backend;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

/** Small helpers that bind parameters by their Java type and run one statement. */
public final class Jdbc {

    /** Maps the current row of a result set. */
    @FunctionalInterface
    public interface RowMapper<T> {
        /**
         * Maps the current row.
         *
         * @param rs the result set, on a row
         * @return the mapped value
         * @throws SQLException if a column cannot be read
         */
        T map(ResultSet rs) throws SQLException;
    }

    /**
     * A NULL parameter with the SQL type of the column or variable it goes to. A bare Java null is bound as
     * {@link Types#NULL}, which mssql-jdbc sends as a binary NULL, and SQL Server does not convert binary to every
     * type (datetimeoffset, for one); a typed NULL is sent with its type on every driver.
     */
    public static final class Null {
        private final int sqlType;

        private Null(int sqlType) {
            this.sqlType = sqlType;
        }

        /**
         * Returns a NULL of that type.
         *
         * @param sqlType a {@link Types} constant, for example {@link Types#NVARCHAR}
         */
        public static Null of(int sqlType) {
            return new Null(sqlType);
        }

        @Override
        public String toString() {
            return "NULL(" + sqlType + ")";
        }
    }

    private Jdbc() {
    }

    /**
     * Returns the value, or a NULL of that type when it is null.
     *
     * @param value a parameter that may be null
     * @param sqlType the {@link Types} constant of the column or variable it goes to
     */
    public static Object orNull(Object value, int sqlType) {
        return value == null ? Null.of(sqlType) : value;
    }

    /**
     * Binds parameters: {@link UUID} and {@link Instant} as objects (an instant as a UTC
     * {@link OffsetDateTime}), {@code byte[]} as bytes, a {@link Null} as a NULL of its type, and a bare null as
     * {@link Types#NULL} (pass {@link #orNull(Object, int)} for any value that may be null).
     *
     * @param ps the statement
     * @param params the parameters, in order
     * @throws SQLException if binding fails
     */
    public static void bind(PreparedStatement ps, Object... params) throws SQLException {
        for (int i = 0; i < params.length; i++) {
            Object p = params[i];
            if (p == null) {
                ps.setNull(i + 1, Types.NULL);
            } else if (p instanceof Null n) {
                bindNull(ps, i + 1, n.sqlType);
            } else if (p instanceof Instant instant) {
                ps.setObject(i + 1, OffsetDateTime.ofInstant(instant, ZoneOffset.UTC));
            } else if (p instanceof byte[] array) {
                ps.setBytes(i + 1, array);
            } else {
                ps.setObject(i + 1, p);
            }
        }
    }

    /**
     * A NULL of a type. pgjdbc's {@code setNull} sends a NULL timestamp with no type (it leaves timestamps to the
     * server), so the server describes such a statement once it is prepared; from then on pgjdbc precedes each of its
     * executions whose result has a column of variable length with a round trip of its own (the {@code BEGIN} alone,
     * or an empty {@code Sync}: its guard against full buffers). On pgjdbc's own statements (those the portable verbs
     * run, {@code PortableSession.statementsOn}) a NULL timestamp is sent typed instead: one round trip per statement.
     */
    private static void bindNull(PreparedStatement ps, int index, int sqlType) throws SQLException {
        if (sqlType == Types.TIMESTAMP_WITH_TIMEZONE && ps instanceof org.postgresql.PGStatement) {
            org.postgresql.util.PGobject typed = new org.postgresql.util.PGobject();
            typed.setType("timestamptz");
            ps.setObject(index, typed);
        } else {
            ps.setNull(index, sqlType);
        }
    }

    /** Returns the update count of {@code sql}, run with {@code params} ({@link #bind}). */
    public static int update(Connection c, String sql, Object... params) throws SQLException {
        try (PreparedStatement ps = customPlans(c.prepareStatement(sql))) {
            bind(ps, params);
            return ps.executeUpdate();
        }
    }

    /** Returns every row of query {@code sql} with {@code params}, mapped. */
    public static <T> List<T> list(Connection c, String sql, RowMapper<T> mapper, Object... params)
            throws SQLException {
        try (PreparedStatement ps = customPlans(c.prepareStatement(sql))) {
            bind(ps, params);
            try (ResultSet rs = ps.executeQuery()) {
                List<T> out = new ArrayList<>();
                while (rs.next()) {
                    out.add(mapper.map(rs));
                }
                return out;
            }
        }
    }

    /** Returns the first row of query {@code sql} with {@code params}, mapped; null when there is none. */
    public static <T> T first(Connection c, String sql, RowMapper<T> mapper, Object... params) throws SQLException {
        try (PreparedStatement ps = customPlans(c.prepareStatement(sql))) {
            bind(ps, params);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? mapper.map(rs) : null;
            }
        }
    }

    /** Returns whether query {@code sql} with {@code params} returned a row. */
    public static boolean exists(Connection c, String sql, Object... params) throws SQLException {
        return first(c, sql, rs -> Boolean.TRUE, params) != null;
    }

    /** Returns the one number query {@code sql} with {@code params} returns, 0 when there is no row. */
    public static long count(Connection c, String sql, Object... params) throws SQLException {
        Long n = first(c, sql, rs -> rs.getLong(1), params);
        return n == null ? 0 : n;
    }

    /** Returns column {@code column} of the current row as a UUID, or null. */
    public static UUID uuid(ResultSet rs, String column) throws SQLException {
        return rs.getObject(column, UUID.class);
    }

    /** Returns column {@code column} of the current row as an instant, or null. */
    public static Instant instant(ResultSet rs, String column) throws SQLException {
        return instant(rs.getObject(column, OffsetDateTime.class));
    }

    /** Returns the column at position {@code column} of the current row as an instant, or null. */
    public static Instant instant(ResultSet rs, int column) throws SQLException {
        return instant(rs.getObject(column, OffsetDateTime.class));
    }

    private static Instant instant(OffsetDateTime t) {
        return t == null ? null : t.toInstant();
    }

    /**
     * On PostgreSQL, has every execution of one of the adapter's statements planned with its parameters and the
     * tables' sizes of that moment (pgjdbc's {@code prepareThreshold} 0 on this statement only: an unnamed statement,
     * sent with its execution in the same round trip). A named server-side statement would settle after a few
     * executions on a generic plan made once, while the adapter's tables were small (a sequential scan of a one-page
     * table is the cheapest plan), and keep scanning them as they grow until they are analysed. The session's
     * settings, which the application's SQL shares, are left alone. Other databases' statements are returned as they
     * are.
     *
     * @param ps a statement the adapter prepared
     * @return the same statement
     * @throws SQLException if the driver refuses
     */
    public static PreparedStatement customPlans(PreparedStatement ps) throws SQLException {
        if (ps.isWrapperFor(org.postgresql.PGStatement.class)) {
            ps.unwrap(org.postgresql.PGStatement.class).setPrepareThreshold(0);
        }
        return ps;
    }
}
