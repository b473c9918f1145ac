package org.ssbjca.it.outbound;

import jakarta.annotation.Resource;
import jakarta.ejb.EJBException;
import jakarta.ejb.SessionContext;
import jakarta.ejb.Stateless;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import jakarta.jms.ConnectionFactory;
import jakarta.jms.JMSConsumer;
import jakarta.jms.JMSContext;
import jakarta.jms.Queue;
import java.nio.charset.StandardCharsets;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import org.ssbjca.api.Conversation;
import org.ssbjca.api.ServiceBrokerConnection;
import org.ssbjca.api.ServiceBrokerConnectionFactory;

/**
 * Sends a broker message and a JMS message ({@code java:/JmsXA}, the messaging subsystem's XA connection factory) in
 * one JTA transaction, and then lets it commit, marks it for rollback, or throws; and looks at both destinations
 * afterwards, outside any transaction.
 */
@Stateless
public class XaSender {

    /** How the transaction of {@link #sendBoth} ends. */
    public enum Outcome {
        /** It commits. */
        COMMIT,
        /** The bean calls {@code setRollbackOnly()}. */
        SET_ROLLBACK_ONLY,
        /** The bean throws a system exception. */
        THROW
    }

    /** The JMS property that tells the test's messages apart. */
    static final String TEXT_PROPERTY = "ssbText";

    @Resource(lookup = "java:/ssb/ConnectionFactory")
    private ServiceBrokerConnectionFactory broker;

    @Resource(lookup = "java:/JmsXA")
    private ConnectionFactory xaJms;

    @Resource(lookup = "java:/ConnectionFactory")
    private ConnectionFactory plainJms;

    @Resource(lookup = OutboundItSetup.JMS_QUEUE)
    private Queue jmsQueue;

    @Resource
    private SessionContext context;

    /**
     * A broker SEND and a JMS send in this method's (container-managed, REQUIRED) transaction.
     *
     * @param text the text of both messages
     * @param outcome how the transaction ends
     */
    public void sendBoth(String text, Outcome outcome) {
        try (ServiceBrokerConnection b = broker.getConnection(); JMSContext jms = xaJms.createContext()) {
            Conversation dialog = b.beginDialog(OutboundItSetup.INITIATOR, OutboundItSetup.TARGET,
                    OutboundItSetup.CONTRACT);
            b.sendText(dialog, OutboundItSetup.REQUEST, text);
            jms.createProducer().setProperty(TEXT_PROPERTY, text).send(jmsQueue, text);
        }
        if (outcome == Outcome.SET_ROLLBACK_ONLY) {
            context.setRollbackOnly();
        } else if (outcome == Outcome.THROW) {
            throw new EJBException("the bean fails after both sends");
        }
    }

    /**
     * Sends on JMS first, then a broker SEND that the broker refuses (an unknown service): the failure must roll the
     * JMS send back too.
     *
     * @param text the text of the JMS message
     */
    public void jmsThenFailingBrokerSend(String text) {
        try (JMSContext jms = xaJms.createContext(); ServiceBrokerConnection b = broker.getConnection()) {
            jms.createProducer().setProperty(TEXT_PROPERTY, text).send(jmsQueue, text);
            b.beginDialog(OutboundItSetup.INITIATOR, "NoSuchService", OutboundItSetup.CONTRACT);
        }
    }

    /**
     * @param text a text sent by this bean
     * @param timeoutMillis how long to wait for it
     * @return the JMS message's text, or null when none came (consumed if it came)
     */
    @TransactionAttribute(TransactionAttributeType.NOT_SUPPORTED)
    public String receiveJms(String text, long timeoutMillis) {
        try (JMSContext jms = plainJms.createContext(JMSContext.AUTO_ACKNOWLEDGE);
             JMSConsumer consumer = jms.createConsumer(jmsQueue, TEXT_PROPERTY + " = '" + text + "'")) {
            return consumer.receiveBody(String.class, timeoutMillis);
        }
    }

    /** @return the texts of the messages now in the broker's target queue (committed) */
    @TransactionAttribute(TransactionAttributeType.NOT_SUPPORTED)
    public List<String> brokerQueue() {
        try (ServiceBrokerConnection b = broker.getConnection();
             PreparedStatement ps = b.jdbcConnection().prepareStatement(
                     "SELECT message_body FROM ssb.message WHERE queue_name = ? ORDER BY queuing_order")) {
            ps.setString(1, OutboundItSetup.TARGET_QUEUE);
            List<String> texts = new ArrayList<>();
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    texts.add(new String(rs.getBytes(1), StandardCharsets.UTF_8));
                }
            }
            return texts;
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }
}
