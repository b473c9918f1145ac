package org.ssbjca.backend.portable;

import java.sql.SQLException;
import java.util.Set;
import org.ssbjca.backend.BackendKind;

/**
 * The two databases of the portable schema: their sequences' spelling and the SQL states that mean a session is
 * gone. Their statements are {@link PortableSql#of}.
 */
enum Dialect {
    H2("NEXT VALUE FOR ssb.turn_seq", "NEXT VALUE FOR ssb.priority_request_seq",
            // connection broken, database closed, database called at shutdown; an I/O error (over TCP, the
            // server's socket closed as the client read: "IO Exception: java.io.EOFException")
            Set.of("90067", "90098", "90121", "90028", "90031")),
    POSTGRESQL("nextval('ssb.turn_seq')", "nextval('ssb.priority_request_seq')",
            // admin_shutdown, crash_shutdown, cannot_connect_now: the server ends or refuses the session
            Set.of("57P01", "57P02", "57P03"));

    /** An expression that takes the next round-robin turn for a conversation group. */
    final String nextTurn;
    /** An expression that takes the next priority request number. */
    final String nextPriorityRequest;
    /** SQL states, besides class 08 (connection exception), that mean the session is gone. */
    @SuppressWarnings("ImmutableEnumChecker") // Set.of: immutable
    private final Set<String> sessionGoneStates;

    Dialect(String nextTurn, String nextPriorityRequest, Set<String> sessionGoneStates) {
        this.nextTurn = nextTurn;
        this.nextPriorityRequest = nextPriorityRequest;
        this.sessionGoneStates = sessionGoneStates;
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

    static Dialect of(BackendKind kind) {
        return switch (kind) {
            case H2 -> H2;
            case POSTGRESQL -> POSTGRESQL;
            default -> throw new IllegalArgumentException(kind + " does not use the portable schema");
        };
    }
}
