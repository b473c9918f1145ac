package org.ssbjca.backend.sqlserver;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.ssbjca.api.BrokerMessage;
import org.ssbjca.api.ReceiveRequest;
import org.ssbjca.backend.Jdbc;
import org.ssbjca.backend.sqlserver.SqlServerNames.QueueName;

/**
 * RECEIVE and GET CONVERSATION GROUP on one connection. An unfiltered RECEIVE first tries the groups the adapter's
 * priority table ranks (highest priority, then earliest request), skipping any group another transaction holds, and
 * otherwise leaves the choice, and the waiting, to SQL Server's own WAITFOR (RECEIVE ...).
 */
final class Receiver {

    /** How many prioritised groups one RECEIVE tries before it lets SQL Server choose. */
    static final int PRIORITY_CANDIDATES = 32;

    private final Connection c;
    private final AtomicReference<Statement> waiting = new AtomicReference<>();
    private final AtomicBoolean woken = new AtomicBoolean();
    private volatile boolean cancelled;

    Receiver(Connection c) {
        this.c = c;
    }

    /** Ends a WAITFOR running on another thread (the driver cancels the statement) and every later one. */
    void cancel() {
        cancelled = true;
        Statement s = waiting.get();
        if (s != null) {
            try {
                s.cancel();
            } catch (SQLException e) {
                // the statement finished meanwhile
            }
        }
    }

    List<BrokerMessage> receive(ReceiveRequest r) {
        if (cancelled) {
            return List.of();
        }
        QueueName queue = SqlServerNames.queue(r.queue());
        String what = "RECEIVE from queue " + queue;
        try {
            if (r.conversationHandle() != null) {
                return receive(queue, TSql.Filter.CONVERSATION, r, Batches.text(r.conversationHandle()));
            }
            if (r.conversationGroupId() != null) {
                return receive(queue, TSql.Filter.CONVERSATION_GROUP, r, Batches.text(r.conversationGroupId()));
            }
            List<BrokerMessage> prioritised = receivePrioritised(queue, r.top());
            if (!prioritised.isEmpty()) {
                return prioritised;
            }
            return receive(queue, TSql.Filter.NONE, r, null);
        } catch (SQLException e) {
            if (cancelled || woken.getAndSet(false)) {
                return List.of();
            }
            throw SqlServerErrors.translate(what, r.queue(), e);
        }
    }

    private List<BrokerMessage> receive(QueueName queue, TSql.Filter filter, ReceiveRequest r, String key)
            throws SQLException {
        boolean waitFor = !r.timeout().isZero();
        int timeout = waitFor ? Batches.waitForMillis(r.timeout()) : 0;
        return unmodifiable(Batches.query(c, TSql.receive(queue, filter, waitFor),
                waitFor ? Batches.queryTimeoutSeconds(timeout) : 0, waiting, Receiver::message,
                Batches.params(r.top(), waitFor ? timeout : null, key)));
    }

    /** Tries the prioritised groups of the queue, best first; never waits for a group another transaction holds. */
    private List<BrokerMessage> receivePrioritised(QueueName queue, int top) throws SQLException {
        List<UUID> groups = Batches.query(c, TSql.priorityCandidates(queue), 0,
                rs -> Batches.uuid(rs, "conversation_group_id"), queue.quoted(), PRIORITY_CANDIDATES);
        String sql = groups.isEmpty() ? null : TSql.receivePrioritisedGroup(queue);
        for (UUID group : groups) {
            List<BrokerMessage> batch = Batches.query(c, sql, 0, Receiver::message, top, Batches.text(group));
            if (!batch.isEmpty()) {
                return unmodifiable(batch);
            }
        }
        return List.of();
    }

    /**
     * GET CONVERSATION GROUP takes SQL Server's next group. Unlike RECEIVE it cannot be pointed at a group, and no
     * statement locks a chosen group without receiving or changing something, so the adapter's priorities do not
     * apply here: GET CONVERSATION GROUP follows SQL Server's own broker priorities.
     */
    Optional<UUID> getConversationGroup(String queueName, Duration timeout) {
        if (cancelled) {
            return Optional.empty();
        }
        QueueName queue = SqlServerNames.queue(queueName);
        boolean waitFor = !timeout.isZero();
        int millis = waitFor ? Batches.waitForMillis(timeout) : 0;
        try {
            List<UUID> group = Batches.query(c, TSql.getConversationGroup(queue, waitFor),
                    waitFor ? Batches.queryTimeoutSeconds(millis) : 0, waiting,
                    rs -> Batches.uuid(rs, "conversation_group_id"),
                    Batches.params(waitFor ? millis : null));
            return group.isEmpty() ? Optional.empty() : Optional.ofNullable(group.get(0));
        } catch (SQLException e) {
            if (cancelled || woken.getAndSet(false)) {
                return Optional.empty();
            }
            throw SqlServerErrors.translate("GET CONVERSATION GROUP from queue " + queue, queueName, e);
        }
    }

    /**
     * Ends the WAITFOR running on another thread now: the driver cancels the statement, and the RECEIVE or GET
     * CONVERSATION GROUP returns empty; later ones wait as usual. Without a WAITFOR running it does nothing.
     */
    void wake() {
        Statement s = waiting.get();
        if (s != null) {
            woken.set(true);
            try {
                s.cancel();
            } catch (SQLException e) {
                // the statement finished meanwhile
            }
        }
    }

    static BrokerMessage message(ResultSet rs) throws SQLException {
        return BrokerMessage.builder()
                .priority(rs.getInt("priority"))
                .queuingOrder(rs.getLong("queuing_order"))
                .conversationGroupId(Batches.uuid(rs, "conversation_group_id"))
                .conversationHandle(Batches.uuid(rs, "conversation_handle"))
                .messageSequenceNumber(rs.getLong("message_sequence_number"))
                .serviceName(rs.getString("service_name"))
                .serviceContractName(rs.getString("service_contract_name"))
                .messageTypeName(rs.getString("message_type_name"))
                .body(rs.getBytes("message_body"))
                .enqueueTime(Jdbc.instant(rs, "message_enqueue_time"))
                .conversationId(Batches.uuid(rs, "conversation_id"))
                .build();
    }

    private static List<BrokerMessage> unmodifiable(List<BrokerMessage> messages) {
        return messages.isEmpty() ? List.of() : Collections.unmodifiableList(messages);
    }
}
