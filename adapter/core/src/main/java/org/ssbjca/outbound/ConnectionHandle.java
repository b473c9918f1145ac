package org.ssbjca.outbound;

import jakarta.resource.spi.ConnectionManager;
import jakarta.resource.spi.LazyEnlistableConnectionManager;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.UUID;
import java.util.function.Function;
import org.ssbjca.api.BrokerException;
import org.ssbjca.api.BrokerMessage;
import org.ssbjca.api.Conversation;
import org.ssbjca.api.DialogOptions;
import org.ssbjca.api.ReceiveRequest;
import org.ssbjca.api.ScheduledSend;
import org.ssbjca.api.ServiceBrokerConnection;
import org.ssbjca.backend.BrokerSession;
import org.ssbjca.backend.DueTime;
import org.ssbjca.brokers.DeliveryContext;

/**
 * The connection handle applications use. It delegates to the managed connection it is associated with and fails
 * clearly once closed, or once the container took its managed connection back.
 */
public class ConnectionHandle implements ServiceBrokerConnection {

    private volatile ServiceBrokerManagedConnection mc;
    private volatile String invalidReason;
    /** The container's connection manager when it enlists lazily (on a verb's first use), else null. */
    private volatile LazyEnlistableConnectionManager enlister;

    ConnectionHandle(ServiceBrokerManagedConnection mc) {
        this.mc = mc;
    }

    void reassociate(ServiceBrokerManagedConnection newMc) {
        ServiceBrokerManagedConnection old = mc;
        if (old != null && old != newMc) {
            old.forget(this);
        }
        mc = newMc;
        invalidReason = null;
    }

    /** @param cm the connection manager that allocated this handle; kept when it enlists lazily */
    void allocatedBy(ConnectionManager cm) {
        enlister = cm instanceof LazyEnlistableConnectionManager lazy ? lazy : null;
    }

    void invalidate() {
        invalidReason = "the container took its managed connection back (transaction or pool cleanup)";
        mc = null;
    }

    private <T> T run(String verb, Function<BrokerSession, T> work) {
        return usable(verb).execute(work, enlister);
    }

    /** @return the managed connection behind this handle; fails, naming the verb, once closed or detached */
    private ServiceBrokerManagedConnection usable(String verb) {
        ServiceBrokerManagedConnection m = mc;
        if (m == null) {
            throw new BrokerException(verb + ": this broker connection cannot be used: "
                    + (invalidReason == null ? "it is closed" : invalidReason));
        }
        return m;
    }

    private void runVoid(String verb, java.util.function.Consumer<BrokerSession> work) {
        run(verb, s -> {
            work.accept(s);
            return null;
        });
    }

    @Override
    public Conversation beginDialog(String fromService, String toService, String contract, DialogOptions options) {
        requireDialog(fromService, toService, contract, options);
        return run("BEGIN DIALOG", s -> s.beginDialog(fromService, toService, contract, options));
    }

    @Override
    public Conversation beginDialogAndSend(String fromService, String toService, String contract,
            DialogOptions options, String messageType, byte[] body) {
        requireDialog(fromService, toService, contract, options);
        Objects.requireNonNull(messageType, "messageType");
        return run("BEGIN DIALOG and SEND",
                s -> s.beginDialogAndSend(fromService, toService, contract, options, messageType, body));
    }

    /** BEGIN DIALOG's arguments, each required. */
    private static void requireDialog(String fromService, String toService, String contract, DialogOptions options) {
        Objects.requireNonNull(fromService, "fromService");
        Objects.requireNonNull(toService, "toService");
        Objects.requireNonNull(contract, "contract");
        Objects.requireNonNull(options, "options");
    }

    @Override
    public void send(Conversation conversation, String messageType, byte[] body) {
        Objects.requireNonNull(conversation, "conversation");
        Objects.requireNonNull(messageType, "messageType");
        runVoid("SEND", s -> s.send(conversation.handle(), messageType, body));
    }

    @Override
    public ScheduledSend send(Conversation conversation, String messageType, byte[] body, Duration delay) {
        return schedule(conversation, messageType, body, DueTime.after(delay));
    }

    @Override
    public ScheduledSend sendAt(Conversation conversation, String messageType, byte[] body, Instant at) {
        return schedule(conversation, messageType, body, DueTime.at(at));
    }

    private ScheduledSend schedule(Conversation conversation, String messageType, byte[] body, DueTime due) {
        Objects.requireNonNull(conversation, "conversation");
        Objects.requireNonNull(messageType, "messageType");
        return run("scheduled SEND", s -> s.scheduleSend(conversation.handle(), messageType, body, due));
    }

    @Override
    public boolean cancel(ScheduledSend scheduled) {
        Objects.requireNonNull(scheduled, "scheduled");
        return run("cancel of a scheduled SEND", s -> s.cancelScheduledSend(scheduled.id()));
    }

    @Override
    public void sendText(Conversation conversation, String messageType, String text) {
        send(conversation, messageType, text == null ? null : text.getBytes(StandardCharsets.UTF_8));
    }

    @Override
    public void endConversation(Conversation conversation) {
        Objects.requireNonNull(conversation, "conversation");
        runVoid("END CONVERSATION", s -> {
            DeliveryContext.beforeEnding(s, conversation.handle());
            s.endConversation(conversation.handle(), null, null);
        });
    }

    @Override
    public void endConversationWithError(Conversation conversation, int code, String description) {
        Objects.requireNonNull(conversation, "conversation");
        runVoid("END CONVERSATION WITH ERROR", s -> {
            DeliveryContext.beforeEnding(s, conversation.handle());
            s.endConversation(conversation.handle(), code, description);
        });
    }

    @Override
    public void endConversationWithCleanup(Conversation conversation) {
        Objects.requireNonNull(conversation, "conversation");
        runVoid("END CONVERSATION WITH CLEANUP", s -> {
            DeliveryContext.beforeEnding(s, conversation.handle());
            s.endConversationWithCleanup(conversation.handle());
        });
    }

    @Override
    public void beginConversationTimer(Conversation conversation, Duration timeout) {
        Objects.requireNonNull(conversation, "conversation");
        runVoid("BEGIN CONVERSATION TIMER", s -> s.beginConversationTimer(conversation.handle(), timeout));
    }

    @Override
    public void moveConversation(Conversation conversation, UUID targetGroup) {
        Objects.requireNonNull(conversation, "conversation");
        Objects.requireNonNull(targetGroup, "targetGroup");
        runVoid("MOVE CONVERSATION", s -> s.moveConversation(conversation.handle(), targetGroup));
    }

    @Override
    public Optional<UUID> getConversationGroup(String queue, Duration timeout) {
        Objects.requireNonNull(queue, "queue");
        Objects.requireNonNull(timeout, "timeout");
        return run("GET CONVERSATION GROUP", s -> s.getConversationGroup(queue, timeout));
    }

    @Override
    public List<BrokerMessage> receive(ReceiveRequest request) {
        Objects.requireNonNull(request, "request");
        return run("RECEIVE", s -> s.receive(request));
    }

    @Override
    public void setPriority(UUID conversationGroupId, int priority) {
        Objects.requireNonNull(conversationGroupId, "conversationGroupId");
        runVoid("set priority", s -> s.setPriority(conversationGroupId, priority));
    }

    /**
     * Taken in a delivery of this adapter, the JDBC connection is the delivery's, and works only on the delivery's
     * thread, in its transaction, until the delivery ends: elsewhere its statements would run on the factory's
     * connection, in another transaction or none, and commit whatever the delivery does, so each call there throws an
     * {@link SQLException}. Taken outside a delivery, every call goes to the connection the verbs would use at that
     * moment.
     */
    @Override
    public Connection jdbcConnection() {
        BrokerSession delivery = usable("jdbcConnection").deliverySession();
        return GuardedConnection.of(() -> {
            ServiceBrokerManagedConnection current = mc;
            if (current == null) {
                throw new BrokerException("the broker connection behind this JDBC connection is closed");
            }
            BrokerSession now;
            try {
                now = current.deliverySession();
            } catch (BrokerException ended) { // the delivery's transaction ended under the bean
                throw new SQLException(ended.getMessage(), ended);
            }
            if (delivery != null && now != delivery) {
                throw new SQLException("this JDBC connection was taken in a delivery and is the delivery's own: it"
                        + " works only on the thread of the delivery, in the delivery's transaction, until the"
                        + " delivery ends; take jdbcConnection() again where the statement runs (another thread or"
                        + " transaction gets the connection factory's connection, a branch of its own)");
            }
            return current.currentConnection(enlister);
        });
    }

    @Override
    public void close() {
        ServiceBrokerManagedConnection m = mc;
        if (m != null) {
            mc = null;
            invalidReason = null;
            m.closed(this);
        }
    }
}
