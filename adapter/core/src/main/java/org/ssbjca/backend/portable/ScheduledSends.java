package org.ssbjca.backend.portable;

import java.sql.SQLException;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import org.ssbjca.api.BrokerException;
import org.ssbjca.api.ConversationEndedException;
import org.ssbjca.api.ScheduledSend;
import org.ssbjca.backend.DueTime;
import org.ssbjca.backend.Jdbc;
import org.ssbjca.support.AdapterLog;

/**
 * Scheduled sends on the portable schema: a row of {@code ssb.scheduled_send} written in the caller's transaction,
 * sent when due by a {@link Housekeeping} pass. The pass locks the due rows with SKIP LOCKED, sends each as a SEND of
 * its own transaction and deletes the row in it, so each scheduled send is sent by exactly one pass of one node, and
 * a pass never waits for another; a send that fails for a reason that passes is kept for a later pass. Stateless
 * (what a node remembers of the failures is its {@link SendRetries}); the methods run on the session they are given.
 */
final class ScheduledSends {

    /** The most scheduled sends one pass sends; more wait for the next pass. */
    static final int PAGE = 500;
    private static final AdapterLog LOG = AdapterLog.of(ScheduledSends.class);

    private ScheduledSends() {
    }

    /**
     * Writes a scheduled send in the session's transaction, after checking that this side of the conversation may
     * still send.
     */
    static ScheduledSend schedule(PortableBroker broker, PortableSession session, UUID handle, String messageType,
            byte[] body, DueTime due) {
        try {
            Endpoint me = session.endpoint(handle);
            if (me == null || !me.isOpen()) {
                throw new ConversationEndedException("scheduled SEND: conversation " + handle
                        + (me == null ? " does not exist" : " has ended (state " + me.state + ")"));
            }
            Instant now = broker.now();
            ScheduledSend scheduled = new ScheduledSend(UUID.randomUUID(), due.from(now));
            session.statements().update(broker.sql().insertScheduledSend, scheduled.id(), handle, messageType,
                    Jdbc.orNull(body, java.sql.Types.BINARY), scheduled.dueAt(), now);
            return scheduled;
        } catch (SQLException e) {
            throw PortableSession.failure("scheduled SEND on conversation " + handle, e);
        }
    }

    /** Returns whether the scheduled send was pending and is now deleted, in the session's transaction. */
    static boolean cancel(PortableBroker broker, PortableSession session, UUID id) {
        try {
            return session.statements().update(broker.sql().deleteScheduledSend, id) == 1;
        } catch (SQLException e) {
            throw PortableSession.failure("cancelling scheduled send " + id, e);
        }
    }

    /**
     * Sends the due scheduled sends no other pass holds, in the session's own transaction (a housekeeping pass), each
     * as a SEND that the others' failure does not undo, its row deleted with it. A SEND that fails for a reason that
     * passes ({@link PortableBroker#transientFailure}: a lock wait that ran out, a deadlock, a concurrent insert) is
     * undone and its row kept, due again after a backoff ({@link SendRetries}), logged at DEBUG
     * ({@code SSBJCA0323}) and, after repeated failures, WARN ({@code SSBJCA0324}); the sends of its conversation due
     * before then wait behind it. One that fails for good (the conversation ended, the message type not in the
     * contract) is dropped and logged ({@code SSBJCA0300}).
     */
    static void sendDue(PortableBroker broker, PortableSession session, SendRetries retries) throws SQLException {
        PortableSql sql = broker.sql();
        List<Due> due = session.statements().list(sql.dueScheduledSends, rs -> new Due(Jdbc.uuid(rs, "scheduled_id"),
                Jdbc.uuid(rs, "conversation_handle"), rs.getString("message_type_name"), rs.getBytes("message_body"),
                Jdbc.instant(rs, "due_at")), broker.now(), PAGE);
        for (Due d : due) {
            Instant behind = retries.behind(d.handle, broker.now());
            if (behind != null) { // after the send of its conversation that is tried again later
                session.statements().update(sql.postponeScheduledSend, behind, d.id);
                continue;
            }
            BrokerException failed = session.attempt(() -> session.send(d.handle, d.messageType, d.body), () -> { });
            if (failed != null && broker.transientFailure(failed)) {
                SendRetries.Retry retry = retries.failed(d.id, d.handle, broker.now());
                if (retry.warn()) {
                    LOG.scheduledSendStillKept(failed, d.id, d.handle, d.messageType, retry.failures(), retry.at(),
                            failed.getMessage());
                } else {
                    LOG.scheduledSendKept(failed, d.id, d.handle, d.messageType, retry.failures(), retry.at(),
                            failed.getMessage());
                }
                session.statements().update(sql.postponeScheduledSend, retry.at(), d.id);
                continue;
            }
            if (failed != null) {
                LOG.scheduledSendDropped(failed, d.id, d.handle, d.messageType, d.dueAt, failed.getMessage());
            }
            retries.done(d.id);
            session.statements().update(sql.deleteScheduledSend, d.id);
        }
    }

    /** A due scheduled send, as read. */
    private record Due(UUID id, UUID handle, String messageType, byte[] body, Instant dueAt) {
    }
}
