package org.ssbjca.backend.sqlserver;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Types;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import org.ssbjca.api.BrokerException;
import org.ssbjca.api.BrokerMessage;
import org.ssbjca.api.Conversation;
import org.ssbjca.api.DialogOptions;
import org.ssbjca.api.ReceiveRequest;
import org.ssbjca.api.ScheduledSend;
import org.ssbjca.backend.BrokerSession;
import org.ssbjca.backend.DueTime;
import org.ssbjca.backend.GroupPresence;
import org.ssbjca.backend.Jdbc;
import org.ssbjca.backend.QueueSignals;
import org.ssbjca.backend.Received;
import org.ssbjca.backend.TouchedQueues;
import org.ssbjca.support.Tracing;

/**
 * The Service Broker verbs on one SQL Server connection: each verb is one T-SQL batch from {@link TSql}, run in
 * whatever transaction the connection is in. Not thread safe.
 *
 * <p>SQL Server waits for messages itself (WAITFOR), so {@link QueueSignals} are not needed to wake readers; they are
 * still raised after a commit, for the queues this session sent to, so that code written against the portable
 * backends behaves the same.
 */
final class SqlServerSession implements BrokerSession {

    private final QueueSignals signals;
    private final Connection c;
    private final Receiver receiver;
    private final TouchedQueues touchedQueues = new TouchedQueues();
    private final GroupPresence.TransactionSets prioritiesSet = new GroupPresence.TransactionSets();

    SqlServerSession(QueueSignals signals, Connection connection) {
        this(signals, new GroupPresence(), connection);
    }

    SqlServerSession(QueueSignals signals, GroupPresence priorities, Connection connection) {
        this(signals, priorities, GroupPresence.ofHolds(), connection);
    }

    /**
     * @param signals the broker's queue signals
     * @param priorities the broker's knowledge of which queues have no prioritised group
     * @param holds the broker's knowledge of which queues have no held group
     * @param connection the connection
     */
    SqlServerSession(QueueSignals signals, GroupPresence priorities, GroupPresence holds, Connection connection) {
        this.signals = signals;
        this.c = Objects.requireNonNull(connection, "connection");
        this.receiver = new Receiver(connection, priorities, holds);
    }

    @Override
    public Connection connection() {
        return c;
    }

    @Override
    public void cancel() {
        receiver.cancel();
    }

    @Override
    public void wake() {
        receiver.wake();
    }

    @Override
    public Conversation beginDialog(String fromService, String toService, String contract, DialogOptions options) {
        String target = SqlServerNames.targetService(toService);
        TSql.Related related = TSql.Related.NONE;
        UUID relatedId = null;
        if (options.relatedConversation() != null) {
            related = TSql.Related.CONVERSATION;
            relatedId = options.relatedConversation();
        } else if (options.relatedConversationGroup() != null) {
            related = TSql.Related.CONVERSATION_GROUP;
            relatedId = options.relatedConversationGroup();
        }
        boolean lifetime = options.lifetime() != null;
        String sql = TSql.beginDialog(fromService, contract, related, lifetime, options.encryption());
        Object[] params = Batches.params(target, Batches.text(relatedId),
                lifetime ? Math.toIntExact(options.lifetime().toSeconds()) : null);
        try {
            List<Conversation> rows = Batches.query(c, sql, 0, rs -> new Conversation(
                    Batches.uuid(rs, "conversation_handle"), Batches.uuid(rs, "conversation_id"),
                    Batches.uuid(rs, "conversation_group_id")), params);
            if (rows.isEmpty()) {
                throw new BrokerException("BEGIN DIALOG from service '" + fromService + "' to service '" + toService
                        + "' returned no conversation endpoint");
            }
            return rows.get(0);
        } catch (SQLException e) {
            throw SqlServerErrors.translate("BEGIN DIALOG from service '" + fromService + "' to service '" + toService
                    + "' on contract '" + contract + "'", null, e);
        }
    }

    @Override
    public void send(UUID handle, String messageType, byte[] body) {
        requireHandle(handle, "SEND");
        boolean withBody = body != null && body.length > 0;
        String plain = TSql.send(messageType, withBody); // validates the message type, traced or not
        String trace = Tracing.get().currentContext();
        String sql = trace == null ? plain : TSql.SEND_TRACED;
        Object[] params = trace == null ? Batches.params(Batches.text(handle), withBody ? body : null)
                : Batches.params(Batches.text(handle), messageType,
                        Jdbc.orNull(withBody ? body : null, Types.VARBINARY), trace);
        try {
            touch(Batches.query(c, sql, 0, rs -> rs.getString("queue_name"), params), messageType);
        } catch (SQLException e) {
            throw SqlServerErrors.translate("SEND of message type '" + messageType + "' on conversation " + handle,
                    null, e);
        }
    }

    @Override
    public void endConversation(UUID handle, Integer errorCode, String errorDescription) {
        String verb = errorCode == null ? "END CONVERSATION" : "END CONVERSATION WITH ERROR";
        requireHandle(handle, verb);
        if (errorCode != null) {
            if (errorCode <= 0) {
                throw new IllegalArgumentException("the error code must be greater than 0: " + errorCode);
            }
            if (errorDescription == null || errorDescription.length() > 3000) {
                throw new IllegalArgumentException("the error description must be given, at most 3000 characters");
            }
        }
        Object[] params = errorCode == null ? Batches.params(Batches.text(handle))
                : Batches.params(Batches.text(handle), errorCode, errorDescription);
        try {
            touch(Batches.query(c, TSqlLedger.endConversation(errorCode != null), 0, rs -> rs.getString("queue_name"),
                    params), null);
        } catch (SQLException e) {
            throw SqlServerErrors.translate(verb + " on conversation " + handle, null, e);
        }
    }

    @Override
    public void endConversationWithCleanup(UUID handle) {
        requireHandle(handle, "END CONVERSATION WITH CLEANUP");
        try {
            Batches.run(c, TSqlLedger.END_CONVERSATION_WITH_CLEANUP, Batches.text(handle));
        } catch (SQLException e) {
            throw SqlServerErrors.translate("END CONVERSATION WITH CLEANUP on conversation " + handle, null, e);
        }
    }

    @Override
    public ScheduledSend scheduleSend(UUID handle, String messageType, byte[] body, DueTime due) {
        requireHandle(handle, "scheduled SEND");
        try {
            List<ScheduledSend> got = Batches.query(c, TSql.SCHEDULE_SEND, 0,
                    rs -> new ScheduledSend(UUID.fromString(rs.getString("scheduled_id")), Jdbc.instant(rs, "due_at")),
                    Batches.text(handle), messageType, Jdbc.orNull(body, Types.VARBINARY),
                    Jdbc.orNull(due.at(), Types.TIMESTAMP_WITH_TIMEZONE),
                    Jdbc.orNull(due.delay() == null ? null : due.delay().toMillis(), Types.BIGINT));
            if (got.isEmpty()) {
                throw new BrokerException("scheduled SEND on conversation " + handle
                        + ": ssb.schedule_send recorded nothing (is sql/sqlserver/install.sql version 3 installed?)");
            }
            return got.get(0);
        } catch (SQLException e) {
            throw SqlServerErrors.translate("scheduled SEND of message type '" + messageType + "' on conversation "
                    + handle, null, e);
        }
    }

    @Override
    public boolean cancelScheduledSend(UUID id) {
        try {
            List<Integer> n = Batches.query(c, TSql.CANCEL_SCHEDULED_SEND, 0, rs -> rs.getInt("cancelled"),
                    Batches.text(id));
            return !n.isEmpty() && n.get(0) == 1;
        } catch (SQLException e) {
            throw SqlServerErrors.translate("cancelling scheduled send " + id, null, e);
        }
    }

    @Override
    public void beginConversationTimer(UUID handle, Duration timeout) {
        requireHandle(handle, "BEGIN CONVERSATION TIMER");
        if (timeout == null || timeout.toSeconds() < 1 || timeout.toSeconds() > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("a conversation timer needs between 1 and " + Integer.MAX_VALUE
                    + " seconds: " + timeout);
        }
        try {
            Batches.run(c, TSql.BEGIN_CONVERSATION_TIMER, Batches.text(handle), (int) timeout.toSeconds());
        } catch (SQLException e) {
            throw SqlServerErrors.translate("BEGIN CONVERSATION TIMER on conversation " + handle, null, e);
        }
    }

    @Override
    public void moveConversation(UUID handle, UUID group) {
        requireHandle(handle, "MOVE CONVERSATION");
        Objects.requireNonNull(group, "target conversation group");
        try {
            Batches.run(c, TSql.MOVE_CONVERSATION, Batches.text(handle), Batches.text(group));
        } catch (SQLException e) {
            throw SqlServerErrors.translate("MOVE CONVERSATION " + handle + " to group " + group, null, e);
        }
    }

    @Override
    public Optional<UUID> getConversationGroup(String queue, Duration timeout) {
        return receiver.getConversationGroup(queue, Objects.requireNonNull(timeout, "timeout"));
    }

    @Override
    public Received receive(ReceiveRequest request, boolean priorities, boolean skipHeld) {
        return receiver.receive(Objects.requireNonNull(request, "request"), priorities, skipHeld);
    }

    @Override
    public void setPriority(UUID group, int priority) {
        Objects.requireNonNull(group, "conversation group");
        if (priority < 0 || priority > 255) {
            throw new IllegalArgumentException("priority must be between 0 and 255: " + priority);
        }
        try {
            List<String> queue = Batches.query(c, TSql.SET_PRIORITY, 0, rs -> rs.getString("queue_name"),
                    Batches.text(group), priority);
            if (queue.isEmpty() || queue.get(0) == null) {
                throw new BrokerException("set priority: conversation group " + group + " does not exist");
            }
            prioritiesSet.set();
        } catch (SQLException e) {
            throw SqlServerErrors.translate("set priority of conversation group " + group, null, e);
        }
    }

    @Override
    public void clearPriority(UUID group) {
        Objects.requireNonNull(group, "conversation group");
        try {
            Batches.run(c, TSql.CLEAR_PRIORITY, Batches.text(group));
        } catch (SQLException e) {
            throw SqlServerErrors.translate("clear priority of conversation group " + group, null, e);
        }
    }

    @Override
    public void afterCompletion(boolean committed) {
        Map<String, TouchedQueues.Arrivals> touched = touchedQueues.drain();
        prioritiesSet.completed(committed);
        if (committed) {
            signals.committed(touched);
        }
    }

    /** @param messageType the type of the messages put on the queues; null: system messages (EndDialog, Error) */
    private void touch(List<String> queues, String messageType) {
        for (String q : queues) {
            if (q != null) {
                touchedQueues.add(q, messageType);
            }
        }
    }

    private static void requireHandle(UUID handle, String verb) {
        if (handle == null) {
            throw new IllegalArgumentException(verb + ": the conversation handle is null");
        }
    }
}
