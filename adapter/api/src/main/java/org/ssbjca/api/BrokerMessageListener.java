package org.ssbjca.api;

/**
 * The message listener interface of message-driven beans that take one message per call.
 *
 * <pre>{@code
 * @MessageDriven(activationConfig = @ActivationConfigProperty(propertyName = "queue", propertyValue = "TargetQueue"))
 * @ResourceAdapter("ssb-jca.rar")
 * public class OrderListener implements BrokerMessageListener {
 *     public void onMessage(BrokerMessage message) { ... }
 * }
 * }</pre>
 *
 * <p>Transaction contract: with a container-managed {@code REQUIRED} transaction (the default) the RECEIVE that
 * took the message and everything the bean does through XA resources commit or roll back together. Throwing a
 * runtime exception or calling {@code setRollbackOnly()} puts the message back on the queue; after
 * {@code maxDeliveryAttempts} failed deliveries it is moved to the dead-letter table.
 *
 * <p>Messages of one conversation group are delivered in order, by one reader at a time.
 */
public interface BrokerMessageListener {

    /**
     * Handles one message.
     *
     * @param message the message; never null
     */
    void onMessage(BrokerMessage message);
}
