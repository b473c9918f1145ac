package org.ssbjca.inbound;

import jakarta.resource.ResourceException;
import jakarta.resource.spi.Activation;
import jakarta.resource.spi.ActivationSpec;
import jakarta.resource.spi.ConfigProperty;
import jakarta.resource.spi.InvalidPropertyException;
import jakarta.resource.spi.ResourceAdapter;
import org.ssbjca.brokers.Config;
import org.ssbjca.brokers.AdapterContext;
import org.ssbjca.api.BrokerMessageListener;
import org.ssbjca.api.ConversationGroupListener;
import org.ssbjca.backend.DatabaseConfig;

/**
 * How a message-driven bean is fed from a queue. Set the properties with {@code @ActivationConfigProperty};
 * {@link #validate()} refuses a bad value with a message naming the property and the accepted range, which fails
 * the deployment.
 */
@Activation(messageListeners = {BrokerMessageListener.class, ConversationGroupListener.class})
public class ServiceBrokerActivationSpec extends FailureProperties implements ActivationSpec {

    /** What the adapter does with a message that failed too often. */
    public enum DeadLetter {
        /** Move it to the dead-letter table, in the transaction of the RECEIVE that took it the last time. */
        TABLE,
        /** Move it to the dead-letter table and end its conversation WITH ERROR. */
        TABLE_AND_END_CONVERSATION
    }

    /** What readers do with EndDialog and Error messages. */
    public enum SystemMessages {
        /** End this side of the conversation without delivering them. */
        END,
        /** Deliver them to the bean, which ends the conversation itself. */
        DELIVER
    }

    private ResourceAdapter resourceAdapter;

    @ConfigProperty(description = "The queue to read (required)")
    private String queue;
    @ConfigProperty(description = "JDBC URL of the broker database; default: the resource adapter's connectionUrl")
    private String connectionUrl;
    @ConfigProperty(description = "Database user; default: the resource adapter's user")
    private String user;
    @ConfigProperty(description = "Database password; default: the resource adapter's password", confidential = true)
    private String password;
    @ConfigProperty(description = "How many readers (concurrent deliveries) this bean gets, 1 to 256",
            defaultValue = "1")
    private String maxReaders = "1";
    @ConfigProperty(description = "RECEIVE TOP (n): at most this many messages of one conversation group per "
            + "transaction, 1 to 10000", defaultValue = "1")
    private String receiveBatchSize = "1";
    @ConfigProperty(description = "WAITFOR timeout of each RECEIVE in milliseconds, 100 to 600000", defaultValue = "5000")
    private String waitTimeout = "5000";
    @ConfigProperty(description = "Failed deliveries of one message before it is dead-lettered, 1 to 100 "
            + "(at most 4 on SQL Server, which disables a queue after 5 rollbacks in a row)", defaultValue = "3")
    private String maxDeliveryAttempts = "3";
    @ConfigProperty(description = "TABLE or TABLE_AND_END_CONVERSATION", defaultValue = "TABLE")
    private String deadLetter = DeadLetter.TABLE.name();
    @ConfigProperty(description = "A service of the application's that also receives each dead letter: sent from the "
            + "message's service on its contract, with its message type and body, in the transaction that moves it to "
            + "the dead-letter table; empty for none", defaultValue = "")
    private String deadLetterService = "";
    @ConfigProperty(description = "Take conversation groups with a priority first", defaultValue = "true")
    private String priorityEnabled = "true";
    @ConfigProperty(description = "Message type whose messages set their conversation group's priority (XML body "
            + "<priority>n</priority>); empty to turn off", defaultValue = "SetPriority")
    private String priorityMessageType = "SetPriority";
    @ConfigProperty(description = "END: end this side on EndDialog/Error without delivering; DELIVER: deliver them",
            defaultValue = "END")
    private String handleSystemMessages = SystemMessages.END.name();
    @ConfigProperty(description = "First reconnect delay in milliseconds, 10 to 600000", defaultValue = "500")
    private String reconnectInitialMillis = "500";
    @ConfigProperty(description = "Longest reconnect delay in milliseconds, at least reconnectInitialMillis",
            defaultValue = "30000")
    private String reconnectMaxMillis = "30000";
    @ConfigProperty(description = "Random reduction of each reconnect delay, 0.0 to 1.0", defaultValue = "0.5")
    private String reconnectJitter = "0.5";
    @ConfigProperty(description = "Transaction timeout of a delivery in seconds, 0 for the container's default",
            defaultValue = "0")
    private String transactionTimeout = "0";
    @ConfigProperty(description = "Milliseconds a conversation group waits after a failed delivery before its "
            + "messages are delivered again (other groups flow meanwhile), 0 to 86400000; 0 redelivers at once",
            defaultValue = "0")
    private String redeliveryDelay = "0";
    @ConfigProperty(description = "Factor applied to the redelivery delay at each further failed delivery of a "
            + "message, 1.0 to 100.0", defaultValue = "1.0")
    private String redeliveryMultiplier = "1.0";
    @ConfigProperty(description = "Longest redelivery delay in milliseconds, from redeliveryDelay to 86400000; "
            + "empty for 10 times redeliveryDelay", defaultValue = "")
    private String maxRedeliveryDelay = "";
    @ConfigProperty(description = "Commit the RECEIVE before delivering (at most once): lets several readers work on "
            + "one conversation's messages in parallel", defaultValue = "false")
    private String commitBeforeDelivery = "false";
    @ConfigProperty(description = "Random spread of each redelivery delay, 0.0 to 1.0: the delay times a factor drawn "
            + "between 1 - redeliveryJitter and 1 + redeliveryJitter, so that groups that failed together are not "
            + "retried together; 0 for none", defaultValue = "0")
    private String redeliveryJitter = "0";

    @Override
    public void validate() throws InvalidPropertyException {
        new ActivationValues(this).validate();
    }

    /**
     * Returns the database: this spec's connection properties, else the resource adapter's.
     *
     * @throws IllegalArgumentException if the URL is not supported
     */
    public DatabaseConfig database() {
        return Config.database(connectionUrl, user, password, resourceAdapter instanceof AdapterContext
                ? (AdapterContext) resourceAdapter : null);
    }

    @Override
    public ResourceAdapter getResourceAdapter() {
        return resourceAdapter;
    }

    @Override
    public void setResourceAdapter(ResourceAdapter ra) throws ResourceException {
        this.resourceAdapter = ra;
    }

    // ---- JavaBean properties

    /** Returns the queue. */
    public String getQueue() {
        return queue;
    }

    /** Sets {@code queue}: the queue. */
    public void setQueue(String queue) {
        this.queue = queue;
    }

    /** Returns the JDBC URL, or null for the adapter's. */
    public String getConnectionUrl() {
        return connectionUrl;
    }

    /** Sets {@code connectionUrl}: the JDBC URL. */
    public void setConnectionUrl(String connectionUrl) {
        this.connectionUrl = connectionUrl;
    }

    /** Returns the user. */
    public String getUser() {
        return user;
    }

    /** Sets {@code user}: the user. */
    public void setUser(String user) {
        this.user = user;
    }

    /** Returns the password. */
    public String getPassword() {
        return password;
    }

    /** Sets {@code password}: the password. */
    public void setPassword(String password) {
        this.password = password;
    }

    /** Returns the text given for the number of readers, 1 to 256 (checked by {@link #validate()}). */
    public String getMaxReaders() {
        return maxReaders;
    }

    /**
     * Sets {@code maxReaders}: the number of readers, 1 to 256, as text: a value that is not one fails the deployment.
     */
    public void setMaxReaders(String maxReaders) {
        this.maxReaders = maxReaders;
    }

    /** Returns the text given for RECEIVE TOP (n), 1 to 10000 (checked by {@link #validate()}). */
    public String getReceiveBatchSize() {
        return receiveBatchSize;
    }

    /**
     * Sets {@code receiveBatchSize}: RECEIVE TOP (n), 1 to 10000, as text: a value that is not one fails the
     * deployment.
     */
    public void setReceiveBatchSize(String receiveBatchSize) {
        this.receiveBatchSize = receiveBatchSize;
    }

    /**
     * Returns the text given for the WAITFOR timeout in milliseconds, 100 to 600000 (checked by {@link #validate()}).
     */
    public String getWaitTimeout() {
        return waitTimeout;
    }

    /**
     * Sets {@code waitTimeout}: the WAITFOR timeout in milliseconds, 100 to 600000, as text: a value that is not one
     * fails the deployment.
     */
    public void setWaitTimeout(String waitTimeout) {
        this.waitTimeout = waitTimeout;
    }

    /**
     * Returns the text given for failed deliveries before dead-lettering, 1 to 100 (checked by {@link #validate()}).
     */
    public String getMaxDeliveryAttempts() {
        return maxDeliveryAttempts;
    }

    /**
     * Sets {@code maxDeliveryAttempts}: failed deliveries before dead-lettering, 1 to 100, as text: a value that is not
     * one fails the deployment.
     */
    public void setMaxDeliveryAttempts(String maxDeliveryAttempts) {
        this.maxDeliveryAttempts = maxDeliveryAttempts;
    }

    /** Returns the dead-letter behaviour name. */
    public String getDeadLetter() {
        return deadLetter;
    }

    /** Sets {@code deadLetter}: TABLE or TABLE_AND_END_CONVERSATION. */
    public void setDeadLetter(String deadLetter) {
        this.deadLetter = deadLetter;
    }

    /** Returns the service that also receives each dead letter, empty for none. */
    public String getDeadLetterService() {
        return deadLetterService;
    }

    /**
     * Sets {@code deadLetterService}: a service that also receives each dead letter (see docs/guide/inbound-mdbs.md),
     * empty for none.
     */
    public void setDeadLetterService(String deadLetterService) {
        this.deadLetterService = deadLetterService;
    }

    /** Returns the text given for whether priorities are honoured: true or false (checked by {@link #validate()}). */
    public String getPriorityEnabled() {
        return priorityEnabled;
    }

    /**
     * Sets {@code priorityEnabled}: whether priorities are honoured: true or false, as text: a value that is not one
     * fails the deployment.
     */
    public void setPriorityEnabled(String priorityEnabled) {
        this.priorityEnabled = priorityEnabled;
    }

    /** Returns the priority request message type. */
    public String getPriorityMessageType() {
        return priorityMessageType;
    }

    /** Sets {@code priorityMessageType}: the priority request message type. */
    public void setPriorityMessageType(String priorityMessageType) {
        this.priorityMessageType = priorityMessageType;
    }

    /** Returns END or DELIVER. */
    public String getHandleSystemMessages() {
        return handleSystemMessages;
    }

    /** Sets {@code handleSystemMessages}: END or DELIVER. */
    public void setHandleSystemMessages(String handleSystemMessages) {
        this.handleSystemMessages = handleSystemMessages;
    }

    /**
     * Returns the text given for the first reconnect delay in milliseconds, 10 to 600000 (checked by {@link
     * #validate()}).
     */
    public String getReconnectInitialMillis() {
        return reconnectInitialMillis;
    }

    /**
     * Sets {@code reconnectInitialMillis}: the first reconnect delay in milliseconds, 10 to 600000, as text: a value
     * that is not one fails the deployment.
     */
    public void setReconnectInitialMillis(String reconnectInitialMillis) {
        this.reconnectInitialMillis = reconnectInitialMillis;
    }

    /** Returns the text given for the longest reconnect delay in milliseconds (checked by {@link #validate()}). */
    public String getReconnectMaxMillis() {
        return reconnectMaxMillis;
    }

    /**
     * Sets {@code reconnectMaxMillis}: the longest reconnect delay in milliseconds, as text: a value that is not one
     * fails the deployment.
     */
    public void setReconnectMaxMillis(String reconnectMaxMillis) {
        this.reconnectMaxMillis = reconnectMaxMillis;
    }

    /** Returns the text given for the reconnect jitter, 0.0 to 1.0 (checked by {@link #validate()}). */
    public String getReconnectJitter() {
        return reconnectJitter;
    }

    /**
     * Sets {@code reconnectJitter}: the reconnect jitter, 0.0 to 1.0, as text: a value that is not one fails the
     * deployment.
     */
    public void setReconnectJitter(String reconnectJitter) {
        this.reconnectJitter = reconnectJitter;
    }

    /**
     * Returns the text given for the delivery transaction timeout in seconds, 0 to 86400 (checked by {@link
     * #validate()}).
     */
    public String getTransactionTimeout() {
        return transactionTimeout;
    }

    /**
     * Sets {@code transactionTimeout}: the delivery transaction timeout in seconds, 0 to 86400, as text: a value that
     * is not one fails the deployment.
     */
    public void setTransactionTimeout(String transactionTimeout) {
        this.transactionTimeout = transactionTimeout;
    }

    /** Returns the text given for the redelivery delay in milliseconds (checked by {@link #validate()}). */
    public String getRedeliveryDelay() {
        return redeliveryDelay;
    }

    /** Sets {@code redeliveryDelay}: milliseconds a group waits after a failed delivery, 0 to 86400000, as text. */
    public void setRedeliveryDelay(String redeliveryDelay) {
        this.redeliveryDelay = redeliveryDelay;
    }

    /** Returns the text given for the redelivery multiplier (checked by {@link #validate()}). */
    public String getRedeliveryMultiplier() {
        return redeliveryMultiplier;
    }

    /**
     * Sets {@code redeliveryMultiplier}: factor applied to the delay at each further failure, 1.0 to 100.0, as text.
     */
    public void setRedeliveryMultiplier(String redeliveryMultiplier) {
        this.redeliveryMultiplier = redeliveryMultiplier;
    }

    /** Returns the text given for the longest redelivery delay in milliseconds, empty for 10 times the delay. */
    public String getMaxRedeliveryDelay() {
        return maxRedeliveryDelay;
    }

    /**
     * Sets {@code maxRedeliveryDelay}: the longest redelivery delay in milliseconds, as text; empty for 10 times the
     * delay.
     */
    public void setMaxRedeliveryDelay(String maxRedeliveryDelay) {
        this.maxRedeliveryDelay = maxRedeliveryDelay;
    }

    /**
     * Returns the text given for whether the RECEIVE commits before delivery: true or false (checked by {@link
     * #validate()}).
     */
    public String getCommitBeforeDelivery() {
        return commitBeforeDelivery;
    }

    /**
     * Sets {@code commitBeforeDelivery}: whether the RECEIVE commits before delivery: true or false, as text: a value
     * that is not one fails the deployment.
     */
    public void setCommitBeforeDelivery(String commitBeforeDelivery) {
        this.commitBeforeDelivery = commitBeforeDelivery;
    }

    /** Returns the text given for redeliveryJitter (checked by {@link #validate()}). */
    public String getRedeliveryJitter() {
        return redeliveryJitter;
    }

    /** Sets {@code redeliveryJitter}: the random spread of each redelivery delay, 0.0 to 1.0, as text. */
    public void setRedeliveryJitter(String redeliveryJitter) {
        this.redeliveryJitter = redeliveryJitter;
    }

    @Override
    public String toString() {
        return "ServiceBrokerActivationSpec[queue=" + queue + ", maxReaders=" + maxReaders + ", receiveBatchSize="
                + receiveBatchSize + ", waitTimeout=" + waitTimeout + "]";
    }
}
