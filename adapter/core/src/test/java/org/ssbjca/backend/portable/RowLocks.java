package org.ssbjca.backend.portable;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.UUID;
import org.ssbjca.backend.BackendKind;
import org.ssbjca.backend.ConnectionSource;

/** Row locks for tests that make a statement of the adapter wait: taken by hand, and seen from another session. */
final class RowLocks {

    private RowLocks() {
    }

    /**
     * Locks a conversation's endpoint row in {@code holder}'s transaction (which must not autocommit), as a verb on
     * the conversation would: a SEND on it waits until the transaction ends.
     */
    static void holdConversation(Connection holder, UUID conversation) throws SQLException {
        try (PreparedStatement ps = holder.prepareStatement(
                "SELECT state FROM ssb.conversation_endpoint WHERE conversation_handle = ? FOR UPDATE")) {
            ps.setObject(1, conversation);
            try (ResultSet rs = ps.executeQuery()) {
                assertTrue(rs.next(), "the conversation's row");
            }
        }
    }

    /** Returns whether a session of the database waits for a lock (PostgreSQL's {@code pg_locks}, H2's sessions). */
    static boolean someSessionWaits(ConnectionSource source) throws SQLException {
        String waiting = source.config().kind() == BackendKind.H2
                ? "SELECT count(*) FROM INFORMATION_SCHEMA.SESSIONS WHERE BLOCKER_ID IS NOT NULL"
                : "SELECT count(*) FROM pg_locks WHERE NOT granted";
        try (Connection c = source.open(); Statement st = c.createStatement();
             ResultSet rs = st.executeQuery(waiting)) {
            rs.next();
            return rs.getLong(1) > 0;
        }
    }
}
