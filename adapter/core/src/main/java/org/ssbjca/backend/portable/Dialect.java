package org.ssbjca.backend.portable;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Set;
import org.ssbjca.backend.BackendKind;
import org.ssbjca.backend.Jdbc;

/**
 * The two databases of the portable schema: their sequences' spelling, the SQL states that mean a session is gone
 * and those of a failure that passes. Their statements are {@link PortableSql#of}.
 */
enum Dialect {
    H2("NEXT VALUE FOR ssb.turn_seq", "NEXT VALUE FOR ssb.priority_request_seq", "m.enqueued_at",
            // connection broken, database closed, database called at shutdown; an I/O error (over TCP, the
            // server's socket closed as the client read: "IO Exception: java.io.EOFException")
            Set.of("90067", "90098", "90121", "90028", "90031"),
            // lock timeout, deadlock, concurrent update, statement cancelled (query timeout); a duplicate key: two
            // transactions creating one row at once (the first SEND on a conversation creating its group)
            Set.of("HYT00", "40001", "90131", "57014", "23505")),
    // the enqueue time in microseconds since the epoch, PostgreSQL's own precision: pgjdbc reads a timestamp through a
    // calendar it builds for each result set, a cost a reader would pay per message
    POSTGRESQL("nextval('ssb.turn_seq')", "nextval('ssb.priority_request_seq')",
            "CAST(EXTRACT(EPOCH FROM m.enqueued_at) * 1000000 AS BIGINT)",
            // admin_shutdown, crash_shutdown, cannot_connect_now: the server ends or refuses the session
            Set.of("57P01", "57P02", "57P03"),
            // serialization failure, deadlock, lock_timeout, statement_timeout; a unique violation: two transactions
            // creating one row at once
            Set.of("40001", "40P01", "55P03", "57014", "23505"));

    /** An expression that takes the next round-robin turn for a conversation group. */
    final String nextTurn;
    /** An expression that takes the next priority request number. */
    final String nextPriorityRequest;
    /**
     * The enqueue time of message {@code m} as the queries of messages return it ({@link PortableSql#messageColumns}):
     * the column itself, or, on PostgreSQL, its microseconds since the epoch ({@link #enqueueTime} reads either).
     */
    final String enqueuedAt;
    /** SQL states, besides class 08 (connection exception), that mean the session is gone. */
    @SuppressWarnings("ImmutableEnumChecker") // Set.of: immutable
    private final Set<String> sessionGoneStates;
    /** SQL states of a statement that failed because of what other transactions did at the time. */
    @SuppressWarnings("ImmutableEnumChecker") // Set.of: immutable
    private final Set<String> contentionStates;

    Dialect(String nextTurn, String nextPriorityRequest, String enqueuedAt, Set<String> sessionGoneStates,
            Set<String> contentionStates) {
        this.nextTurn = nextTurn;
        this.nextPriorityRequest = nextPriorityRequest;
        this.enqueuedAt = enqueuedAt;
        this.sessionGoneStates = sessionGoneStates;
        this.contentionStates = contentionStates;
    }

    /**
     * Returns whether an error's SQL state is one of this database's that mean the session is gone (besides the
     * connection exceptions, class 08, that every backend knows).
     *
     * @param e an error from this database
     */
    boolean sessionGone(SQLException e) {
        return e.getSQLState() != null && sessionGoneStates.contains(e.getSQLState());
    }

    /**
     * Returns whether an error's SQL state means the statement failed because of what other transactions did at the
     * time (a lock wait that ran out, a deadlock, a serialization failure, a concurrent insert of the same key, a
     * statement timeout), so that the same statement may succeed when tried again later.
     *
     * @param e an error from this database
     */
    boolean contention(SQLException e) {
        return e.getSQLState() != null && contentionStates.contains(e.getSQLState());
    }

    /**
     * Returns the enqueue time a query of messages returned in {@code column} ({@link #enqueuedAt}), or null.
     *
     * @param rs a result set on the row
     * @param column the column's position
     * @throws SQLException if the driver cannot read it
     */
    Instant enqueueTime(ResultSet rs, int column) throws SQLException {
        if (this != POSTGRESQL) {
            return Jdbc.instant(rs, column);
        }
        long micros = rs.getLong(column);
        return rs.wasNull() ? null : Instant.EPOCH.plus(micros, ChronoUnit.MICROS);
    }

    /** PostgreSQL plans a prepared statement's first five executions for their parameters (its plan cache). */
    private static final int CUSTOM_PLANS = 5;

    /**
     * Returns how many looks a reader's first wait runs back to back on an empty queue before it first sleeps, so
     * that its RECEIVE's plan is cached before messages come. On PostgreSQL: pgjdbc's {@code prepareThreshold}
     * executions until the statement is kept prepared on the server, PostgreSQL's five custom plans after it and the
     * generic plan's own, and one for the first look, whose text carries its transaction's BEGIN
     * (docs/design/begin-in-the-first-write.md). None on H2, and none when pgjdbc keeps no statement prepared
     * ({@code prepareThreshold=0}) or its connection is not reachable.
     *
     * @param driverConnection the driver's connection the looks run on
     */
    int primingLooks(java.sql.Connection driverConnection) {
        if (this != POSTGRESQL) {
            return 0;
        }
        try {
            int threshold = driverConnection.unwrap(org.postgresql.PGConnection.class).getPrepareThreshold();
            return threshold == 0 ? 0 : Math.max(1, threshold) + CUSTOM_PLANS + 1;
        } catch (SQLException | RuntimeException e) {
            return 0;
        }
    }

    static Dialect of(BackendKind kind) {
        return switch (kind) {
            case H2 -> H2;
            case POSTGRESQL -> POSTGRESQL;
            default -> throw new IllegalArgumentException(kind + " does not use the portable schema");
        };
    }
}
