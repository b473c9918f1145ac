package org.ssbjca.backend;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.UUID;
import org.ssbjca.api.BrokerMessage;

/** A message taken off its queue after too many failed deliveries. */
public final class DeadLetter {

    private final long id;
    private final String queue;
    private final BrokerMessage message;
    private final int attempts;
    private final String lastError;
    private final Instant deadLetteredAt;
    private final UUID copyConversationId;

    /**
     * @param id its id in the dead-letter table
     * @param queue the queue it came from
     * @param message the message as it was received
     * @param attempts how many deliveries failed
     * @param lastError the last error, or null
     * @param deadLetteredAt when it was moved
     */
    public DeadLetter(long id, String queue, BrokerMessage message, int attempts, String lastError,
            Instant deadLetteredAt) {
        this(id, queue, message, attempts, lastError, deadLetteredAt, null);
    }

    /**
     * @param id its id in the dead-letter table
     * @param queue the queue it came from
     * @param message the message as it was received
     * @param attempts how many deliveries failed
     * @param lastError the last error, or null
     * @param deadLetteredAt when it was moved
     * @param copyConversationId the conversation id of the dialog that carried its copy to the activation's
     *        dead-letter service, or null when none was sent
     */
    public DeadLetter(long id, String queue, BrokerMessage message, int attempts, String lastError,
            Instant deadLetteredAt, UUID copyConversationId) {
        this.copyConversationId = copyConversationId;
        this.id = id;
        this.queue = queue;
        this.message = message;
        this.attempts = attempts;
        this.lastError = lastError;
        this.deadLetteredAt = deadLetteredAt;
    }

    /** Reads a UUID column the way a backend's driver returns it. */
    @FunctionalInterface
    public interface UuidColumn {
        /**
         * Returns its value, or null.
         *
         * @param rs a result set on a row
         * @param column the column
         * @throws SQLException on error
         */
        UUID read(ResultSet rs, String column) throws SQLException;
    }

    /**
     * Reads a row of the dead-letter table (the same columns on every backend).
     *
     * @param rs a result set on a row
     * @param uuid how this backend's driver returns UUID columns
     * @return the dead letter
     * @throws SQLException on error
     */
    public static DeadLetter read(ResultSet rs, UuidColumn uuid) throws SQLException {
        BrokerMessage m = BrokerMessage.builder()
                .conversationGroupId(uuid.read(rs, "conversation_group_id"))
                .conversationHandle(uuid.read(rs, "conversation_handle"))
                .conversationId(uuid.read(rs, "conversation_id"))
                .messageSequenceNumber(rs.getLong("message_sequence_number"))
                .messageTypeName(rs.getString("message_type_name"))
                .serviceName(rs.getString("service_name"))
                .serviceContractName(rs.getString("service_contract_name"))
                .body(rs.getBytes("message_body"))
                .enqueueTime(Jdbc.instant(rs, "enqueued_at"))
                .build();
        return new DeadLetter(rs.getLong("dead_letter_id"), rs.getString("queue_name"), m, rs.getInt("attempts"),
                rs.getString("last_error"), Jdbc.instant(rs, "dead_lettered_at"),
                uuid.read(rs, "copy_conversation_id"));
    }

    /** Returns its id. */
    public long id() {
        return id;
    }

    /** Returns the queue it came from. */
    public String queue() {
        return queue;
    }

    /** Returns the message. */
    public BrokerMessage message() {
        return message;
    }

    /** Returns how many deliveries failed. */
    public int attempts() {
        return attempts;
    }

    /** Returns the last error, or null. */
    public String lastError() {
        return lastError;
    }

    /** Returns when it was moved. */
    public Instant deadLetteredAt() {
        return deadLetteredAt;
    }

    /**
     * Returns the conversation id of the dialog that carried its copy to the activation's dead-letter service (the
     * {@code conversation_id} the service's RECEIVE returns with the copy), or null when no copy was sent.
     */
    public UUID copyConversationId() {
        return copyConversationId;
    }
}
