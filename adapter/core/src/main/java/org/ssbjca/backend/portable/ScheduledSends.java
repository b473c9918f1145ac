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
 * a pass never waits for another. Stateless; the methods run on the session they are given.
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
     * as a SEND that the others' failure does not undo: one that fails is dropped and logged ({@code SSBJCA0300}).
     */
    static void sendDue(PortableBroker broker, PortableSession session) throws SQLException {
        PortableSql sql = broker.sql();
        List<Due> due = session.statements().list(sql.dueScheduledSends, rs -> new Due(Jdbc.uuid(rs, "scheduled_id"),
                Jdbc.uuid(rs, "conversation_handle"), rs.getString("message_type_name"), rs.getBytes("message_body"),
                Jdbc.instant(rs, "due_at")), broker.now(), PAGE);
        for (Due d : due) {
            BrokerException failed = session.attempt(() -> session.send(d.handle, d.messageType, d.body), () -> { });
            if (failed != null) {
                LOG.scheduledSendDropped(failed, d.id, d.handle, d.messageType, d.dueAt, failed.getMessage());
            }
            session.statements().update(sql.deleteScheduledSend, d.id);
        }
    }

    /** A due scheduled send, as read. */
    private record Due(UUID id, UUID handle, String messageType, byte[] body, Instant dueAt) {
    }
}
