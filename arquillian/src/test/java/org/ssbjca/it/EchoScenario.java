package org.ssbjca.it;

import static org.junit.jupiter.api.Assertions.assertEquals;

import jakarta.annotation.Resource;
import jakarta.ejb.EJB;
import java.nio.charset.StandardCharsets;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.UUID;
import org.jboss.arquillian.container.test.api.OperateOnDeployment;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.ssbjca.api.Conversation;
import org.ssbjca.api.ServiceBrokerConnection;
import org.ssbjca.api.ServiceBrokerConnectionFactory;
import org.ssbjca.sample.echo.DeliveryLog;
import org.ssbjca.sample.echo.EchoClient;

/**
 * The walking skeleton in a real WildFly: an EJB begins a dialog and sends a request in its JTA transaction; the
 * EchoService MDB receives it inside the container transaction (XA), replies on the same conversation and ends it;
 * the client receives the reply and ends its side on EndDialog. The same tests run on H2 ({@link EchoIT}) and on
 * PostgreSQL ({@link EchoPostgresIT}).
 */
@ExtendWith(ArquillianExtension.class)
abstract class EchoScenario {

    private static final Duration WAIT = Duration.ofSeconds(30);

    @EJB
    EchoClient client;

    @Resource(lookup = "java:/ssb/ConnectionFactory")
    ServiceBrokerConnectionFactory factory;

    @Test
    @OperateOnDeployment("ejb")
    void theReplyArrivesAndBothSidesEnd() throws SQLException {
        Conversation dialog = client.send("hello");

        assertEquals("echo: hello", client.awaitReply(dialog, WAIT));
        assertEquals(1, DeliveryLog.attempts("hello"));
        assertEquals(0, endpointsOf(dialog), "both sides ended: no endpoint of the conversation remains");
    }

    @Test
    @OperateOnDeployment("ejb")
    void aDeliveryRolledBackWithSetRollbackOnlyIsDeliveredAgain() {
        String text = "rollback-once:" + UUID.randomUUID();
        Conversation dialog = client.send(text);

        assertEquals("echo: " + text, client.awaitReply(dialog, WAIT));
        assertEquals(2, DeliveryLog.attempts(text), "the first delivery rolled back, the second answered");
    }

    @Test
    @OperateOnDeployment("ejb")
    void aDeliveryWhoseBeanThrowsIsDeliveredAgain() {
        String text = "throw-once:" + UUID.randomUUID();
        Conversation dialog = client.send(text);

        assertEquals("echo: " + text, client.awaitReply(dialog, WAIT));
        assertEquals(2, DeliveryLog.attempts(text));
    }

    @Test
    @OperateOnDeployment("ejb")
    void aMessageSentInARolledBackTransactionIsNeverDelivered() throws SQLException {
        String ghost = "ghost:" + UUID.randomUUID();
        client.sendThenRollBack(ghost);
        String after = "after-ghost:" + UUID.randomUUID();
        Conversation dialog = client.send(after);

        assertEquals("echo: " + after, client.awaitReply(dialog, WAIT),
                "a request sent after the rolled-back one was answered, so the readers went past it");
        assertEquals(0, DeliveryLog.attempts(ghost), "the rolled-back request never reached the bean");
        assertEquals(0, count("SELECT COUNT(*) FROM ssb.message WHERE queue_name = 'EchoServiceQueue'"));
    }

    /**
     * BEGIN DIALOG, then SEND, as two calls (on PostgreSQL the first is held back until the second, or until the
     * transaction ends: WildFly's transaction manager ends the branch, and the adapter writes it then): a dialog begun
     * in one transaction and sent on in the next, and one begun and sent on in the same, are both answered.
     */
    @Test
    @OperateOnDeployment("ejb")
    void dialogsBegunWithBeginDialogAreAnsweredWhetherSentOnInTheirTransactionOrInTheNext() throws Exception {
        jakarta.transaction.UserTransaction tx = (jakarta.transaction.UserTransaction)
                new javax.naming.InitialContext().lookup("java:comp/UserTransaction");
        Conversation[] begun = new Conversation[3];
        tx.begin();
        try (ServiceBrokerConnection broker = factory.getConnection()) {
            // the first written when called unless the adapter has checked these names before, the next two held
            begun[0] = broker.beginDialog("EchoClientService", "EchoService", "EchoContract");
            begun[1] = broker.beginDialog("EchoClientService", "EchoService", "EchoContract");
            broker.send(begun[1], "EchoRequest", "in the same transaction".getBytes(StandardCharsets.UTF_8));
            begun[2] = broker.beginDialog("EchoClientService", "EchoService", "EchoContract");
        } // the last written when the branch ends
        tx.commit();
        tx.begin();
        try (ServiceBrokerConnection broker = factory.getConnection()) {
            for (int i : new int[] {0, 2}) {
                broker.send(begun[i], "EchoRequest", ("in the next " + i).getBytes(StandardCharsets.UTF_8));
            }
        }
        tx.commit();

        assertEquals("echo: in the next 0", client.awaitReply(begun[0], WAIT));
        assertEquals("echo: in the same transaction", client.awaitReply(begun[1], WAIT));
        assertEquals("echo: in the next 2", client.awaitReply(begun[2], WAIT));
    }

    private long endpointsOf(Conversation dialog) throws SQLException {
        return count("SELECT COUNT(*) FROM ssb.conversation_endpoint WHERE conversation_id = '"
                + dialog.conversationId() + "'");
    }

    private long count(String sql) throws SQLException {
        try (ServiceBrokerConnection broker = factory.getConnection();
             PreparedStatement ps = broker.jdbcConnection().prepareStatement(sql);
             ResultSet rs = ps.executeQuery()) {
            rs.next();
            return rs.getLong(1);
        }
    }
}
