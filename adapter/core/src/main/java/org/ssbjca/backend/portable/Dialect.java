package org.ssbjca.backend.portable;

import org.ssbjca.backend.BackendKind;

/** The few places where H2 and PostgreSQL spell the portable schema's statements differently. */
enum Dialect {
    H2("NEXT VALUE FOR ssb.turn_seq", "NEXT VALUE FOR ssb.priority_request_seq", "h2", false),
    POSTGRESQL("nextval('ssb.turn_seq')", "nextval('ssb.priority_request_seq')", "postgresql", true);

    /** An expression that takes the next round-robin turn for a conversation group. */
    final String nextTurn;
    /** An expression that takes the next priority request number. */
    final String nextPriorityRequest;
    /** The folder of this dialect's scripts under {@code sql/}. */
    final String scriptFolder;
    /**
     * Whether a RECEIVE from a queue runs as one statement (data-modifying WITH, DELETE ... RETURNING:
     * PostgreSQL), rather than as the pick, lock, read, delete and turn statements one by one (H2).
     */
    final boolean receivesInOneStatement;

    Dialect(String nextTurn, String nextPriorityRequest, String scriptFolder, boolean receivesInOneStatement) {
        this.nextTurn = nextTurn;
        this.nextPriorityRequest = nextPriorityRequest;
        this.scriptFolder = scriptFolder;
        this.receivesInOneStatement = receivesInOneStatement;
    }

    static Dialect of(BackendKind kind) {
        switch (kind) {
            case H2:
                return H2;
            case POSTGRESQL:
                return POSTGRESQL;
            default:
                throw new IllegalArgumentException(kind + " does not use the portable schema");
        }
    }
}
