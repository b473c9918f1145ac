package org.ssbjca.sample.echo;

import jakarta.annotation.Resource;
import jakarta.ejb.SessionContext;
import jakarta.ejb.Stateless;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import org.ssbjca.api.BrokerMessage;
import org.ssbjca.api.Conversation;
import org.ssbjca.api.DialogOptions;
import org.ssbjca.api.ReceiveRequest;
import org.ssbjca.api.ServiceBrokerConnection;
import org.ssbjca.api.ServiceBrokerConnectionFactory;

/**
 * The initiator of the echo dialog: begins a dialog and sends a request in the caller's transaction, and waits for
 * the answer with a synchronous RECEIVE, ending its side when EndDialog arrives.
 */
@Stateless
public class EchoClient {

    static final String CLIENT_QUEUE = "EchoClientQueue";

    @Resource(lookup = "java:/ssb/ConnectionFactory")
    private ServiceBrokerConnectionFactory factory;

    @Resource
    private SessionContext context;

    /**
     * Begins a dialog from EchoClientService to EchoService and sends one EchoRequest, in this method's transaction,
     * in one call ({@code beginDialogAndSend}: one statement on PostgreSQL instead of two).
     *
     * @param text the request text
     * @return the initiator's side of the dialog
     */
    public Conversation send(String text) {
        try (ServiceBrokerConnection broker = factory.getConnection()) {
            return broker.beginDialogAndSend("EchoClientService", "EchoService", "EchoContract",
                    DialogOptions.defaults(), "EchoRequest", text.getBytes(StandardCharsets.UTF_8));
        }
    }

    /**
     * Sends like {@link #send} and then rolls the transaction back: the request must never be delivered.
     *
     * @param text the request text
     */
    public void sendThenRollBack(String text) {
        send(text);
        context.setRollbackOnly();
    }

    /**
     * Waits for the answer on a dialog, in a transaction of its own: receives the EchoReply and, when the
     * EndDialog that follows it arrives, ends this side too.
     *
     * @param dialog the initiator's side
     * @param timeout how long to wait in all
     * @return the reply text, or null if none came in time
     */
    @TransactionAttribute(TransactionAttributeType.REQUIRES_NEW)
    public String awaitReply(Conversation dialog, Duration timeout) {
        String reply = null;
        long deadline = System.nanoTime() + timeout.toNanos();
        try (ServiceBrokerConnection broker = factory.getConnection()) {
            while (System.nanoTime() < deadline) {
                Duration left = Duration.ofNanos(deadline - System.nanoTime());
                List<BrokerMessage> got = broker.receive(ReceiveRequest.from(CLIENT_QUEUE).conversation(dialog)
                        .top(10).timeout(left));
                for (BrokerMessage m : got) {
                    if (m.isEndDialog() || m.isError()) {
                        broker.endConversation(dialog);
                        return reply;
                    }
                    reply = m.bodyAsText();
                }
            }
        }
        return reply;
    }
}
