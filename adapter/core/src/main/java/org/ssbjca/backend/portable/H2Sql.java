package org.ssbjca.backend.portable;

/**
 * The portable schema's statements on H2: a RECEIVE runs its pick, lock, read, delete and turn as statements of their
 * own ({@link MessageStore}), a drained group simply takes its next turn, and lock waits are bounded per session.
 */
final class H2Sql extends PortableSql {

    private final String insertGroup;
    private final String attemptsOfMessages = "SELECT conversation_handle, message_sequence_number, attempts"
            + " FROM ssb.delivery_attempt WHERE conversation_handle = ANY (?) AND message_sequence_number = ANY (?)";

    H2Sql() {
        super(Dialect.H2);
        insertGroup = "INSERT INTO ssb.conversation_group (conversation_group_id, queue_name, turn) VALUES (?, ?, "
                + nextTurnValue + ")";
    }

    @Override
    boolean receivesInOneStatement() {
        return false;
    }

    @Override
    boolean parksDrainedGroups() {
        return false;
    }

    @Override
    boolean writesInOneStatement() {
        return false;
    }

    @Override
    boolean upsertsPriority() {
        return false;
    }

    @Override
    String insertGroup() {
        return insertGroup;
    }

    @Override
    String insertMessage() {
        return INSERT_MESSAGE;
    }

    @Override
    String attemptsOfMessages() {
        return attemptsOfMessages;
    }

    @Override
    String lockWait(int millis) {
        return "SET LOCK_TIMEOUT " + millis;
    }
}
