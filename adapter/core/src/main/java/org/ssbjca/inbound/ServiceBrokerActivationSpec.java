package org.ssbjca.inbound;

import jakarta.resource.ResourceException;
import jakarta.resource.spi.Activation;
import jakarta.resource.spi.ActivationSpec;
import jakarta.resource.spi.ConfigProperty;
import jakarta.resource.spi.InvalidPropertyException;
import jakarta.resource.spi.ResourceAdapter;
import java.util.Locale;
import org.ssbjca.adapter.Config;
import org.ssbjca.adapter.ServiceBrokerResourceAdapter;
import org.ssbjca.api.BrokerMessageListener;
import org.ssbjca.api.ConversationGroupListener;
import org.ssbjca.backend.BackendKind;
import org.ssbjca.backend.DatabaseConfig;

/**
 * How a message-driven bean is fed from a queue. Set the properties with {@code @ActivationConfigProperty};
 * {@link #validate()} refuses a bad value with a message naming the property and the accepted range, which fails
 * the deployment.
 */
@Activation(messageListeners = {BrokerMessageListener.class, ConversationGroupListener.class})
public class ServiceBrokerActivationSpec implements ActivationSpec {

    /** What the adapter does with a message that failed too often. */
    public enum DeadLetter {
        /** Move it to the dead-letter table, in its own transaction. */
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
    private Integer maxReaders = 1;
    @ConfigProperty(description = "RECEIVE TOP (n): at most this many messages of one conversation group per "
            + "transaction, 1 to 10000", defaultValue = "1")
    private Integer receiveBatchSize = 1;
    @ConfigProperty(description = "WAITFOR timeout of each RECEIVE in milliseconds, 100 to 600000", defaultValue = "5000")
    private Long waitTimeout = 5000L;
    @ConfigProperty(description = "Failed deliveries of one message before it is dead-lettered, 1 to 100 "
            + "(at most 4 on SQL Server, which disables a queue after 5 rollbacks in a row)", defaultValue = "3")
    private Integer maxDeliveryAttempts = 3;
    @ConfigProperty(description = "TABLE or TABLE_AND_END_CONVERSATION", defaultValue = "TABLE")
    private String deadLetter = DeadLetter.TABLE.name();
    @ConfigProperty(description = "Take conversation groups with a priority first", defaultValue = "true")
    private Boolean priorityEnabled = Boolean.TRUE;
    @ConfigProperty(description = "Message type whose messages set their conversation group's priority (XML body "
            + "<priority>n</priority>); empty to turn off", defaultValue = "SetPriority")
    private String priorityMessageType = "SetPriority";
    @ConfigProperty(description = "END: end this side on EndDialog/Error without delivering; DELIVER: deliver them",
            defaultValue = "END")
    private String handleSystemMessages = SystemMessages.END.name();
    @ConfigProperty(description = "First reconnect delay in milliseconds, 10 to 600000", defaultValue = "500")
    private Long reconnectInitialMillis = 500L;
    @ConfigProperty(description = "Longest reconnect delay in milliseconds, at least reconnectInitialMillis",
            defaultValue = "30000")
    private Long reconnectMaxMillis = 30_000L;
    @ConfigProperty(description = "Random reduction of each reconnect delay, 0.0 to 1.0", defaultValue = "0.5")
    private Double reconnectJitter = 0.5;
    @ConfigProperty(description = "Transaction timeout of a delivery in seconds, 0 for the container's default",
            defaultValue = "0")
    private Integer transactionTimeout = 0;
    @ConfigProperty(description = "Commit the RECEIVE before delivering (at most once): lets several readers work on "
            + "one conversation's messages in parallel", defaultValue = "false")
    private Boolean commitBeforeDelivery = Boolean.FALSE;

    @Override
    public void validate() throws InvalidPropertyException {
        if (Config.blankToNull(queue) == null) {
            throw invalid("queue", "is required: the name of the queue to read");
        }
        try {
            database();
        } catch (IllegalArgumentException e) {
            throw invalid("connectionUrl", e.getMessage());
        }
        range("maxReaders", maxReaders, DeliverySettings.MIN_READERS, DeliverySettings.MAX_READERS);
        range("receiveBatchSize", receiveBatchSize, DeliverySettings.MIN_BATCH, DeliverySettings.MAX_BATCH);
        range("waitTimeout", waitTimeout, DeliverySettings.MIN_WAIT, DeliverySettings.MAX_WAIT);
        range("maxDeliveryAttempts", maxDeliveryAttempts, 1, 100);
        if (database().kind() == BackendKind.SQLSERVER && maxDeliveryAttempts >= 5) {
            throw invalid("maxDeliveryAttempts", "must be between 1 and 4 on SQL Server (it disables a queue after "
                    + "5 rolled-back RECEIVEs in a row), was " + maxDeliveryAttempts);
        }
        deadLetterMode();
        systemMessages();
        range("reconnectInitialMillis", reconnectInitialMillis, 10, 600_000);
        range("reconnectMaxMillis", reconnectMaxMillis, reconnectInitialMillis, 3_600_000);
        if (reconnectJitter == null || reconnectJitter < 0 || reconnectJitter > 1) {
            throw invalid("reconnectJitter", "must be between 0.0 and 1.0, was " + reconnectJitter);
        }
        range("transactionTimeout", transactionTimeout, 0, 86_400);
    }

    private static void range(String name, Number value, long min, long max) throws InvalidPropertyException {
        if (value == null || value.longValue() < min || value.longValue() > max) {
            throw invalid(name, "must be between " + min + " and " + max + ", was " + value);
        }
    }

    private static InvalidPropertyException invalid(String property, String why) {
        InvalidPropertyException e = new InvalidPropertyException("ssb-jca activation property '" + property + "' "
                + why);
        try {
            e.setInvalidPropertyDescriptors(new java.beans.PropertyDescriptor[] {
                new java.beans.PropertyDescriptor(property, ServiceBrokerActivationSpec.class)
            });
        } catch (java.beans.IntrospectionException ignored) {
            // the message names the property already
        }
        return e;
    }

    /**
     * @return the database: this spec's connection properties, else the resource adapter's
     * @throws IllegalArgumentException if the URL is not supported
     */
    public DatabaseConfig database() {
        return Config.database(connectionUrl, user, password, resourceAdapter instanceof ServiceBrokerResourceAdapter
                ? (ServiceBrokerResourceAdapter) resourceAdapter : null);
    }

    /** @return the dead-letter behaviour */
    public DeadLetter deadLetterMode() throws InvalidPropertyException {
        try {
            return DeadLetter.valueOf(deadLetter.trim().toUpperCase(Locale.ROOT));
        } catch (RuntimeException e) {
            throw invalid("deadLetter", "must be TABLE or TABLE_AND_END_CONVERSATION, was " + deadLetter);
        }
    }

    /** @return what readers do with EndDialog and Error */
    public SystemMessages systemMessages() throws InvalidPropertyException {
        try {
            return SystemMessages.valueOf(handleSystemMessages.trim().toUpperCase(Locale.ROOT));
        } catch (RuntimeException e) {
            throw invalid("handleSystemMessages", "must be END or DELIVER, was " + handleSystemMessages);
        }
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

    /** @return the queue */
    public String getQueue() {
        return queue;
    }

    /** @param queue the queue */
    public void setQueue(String queue) {
        this.queue = queue;
    }

    /** @return the JDBC URL, or null for the adapter's */
    public String getConnectionUrl() {
        return connectionUrl;
    }

    /** @param connectionUrl the JDBC URL */
    public void setConnectionUrl(String connectionUrl) {
        this.connectionUrl = connectionUrl;
    }

    /** @return the user */
    public String getUser() {
        return user;
    }

    /** @param user the user */
    public void setUser(String user) {
        this.user = user;
    }

    /** @return the password */
    public String getPassword() {
        return password;
    }

    /** @param password the password */
    public void setPassword(String password) {
        this.password = password;
    }

    /** @return the number of readers */
    public Integer getMaxReaders() {
        return maxReaders;
    }

    /** @param maxReaders the number of readers */
    public void setMaxReaders(Integer maxReaders) {
        this.maxReaders = maxReaders;
    }

    /** @return RECEIVE TOP (n) */
    public Integer getReceiveBatchSize() {
        return receiveBatchSize;
    }

    /** @param receiveBatchSize RECEIVE TOP (n) */
    public void setReceiveBatchSize(Integer receiveBatchSize) {
        this.receiveBatchSize = receiveBatchSize;
    }

    /** @return the WAITFOR timeout in milliseconds */
    public Long getWaitTimeout() {
        return waitTimeout;
    }

    /** @param waitTimeout the WAITFOR timeout in milliseconds */
    public void setWaitTimeout(Long waitTimeout) {
        this.waitTimeout = waitTimeout;
    }

    /** @return failed deliveries before dead-lettering */
    public Integer getMaxDeliveryAttempts() {
        return maxDeliveryAttempts;
    }

    /** @param maxDeliveryAttempts failed deliveries before dead-lettering */
    public void setMaxDeliveryAttempts(Integer maxDeliveryAttempts) {
        this.maxDeliveryAttempts = maxDeliveryAttempts;
    }

    /** @return the dead-letter behaviour name */
    public String getDeadLetter() {
        return deadLetter;
    }

    /** @param deadLetter TABLE or TABLE_AND_END_CONVERSATION */
    public void setDeadLetter(String deadLetter) {
        this.deadLetter = deadLetter;
    }

    /** @return whether priorities are honoured */
    public Boolean getPriorityEnabled() {
        return priorityEnabled;
    }

    /** @param priorityEnabled whether priorities are honoured */
    public void setPriorityEnabled(Boolean priorityEnabled) {
        this.priorityEnabled = priorityEnabled;
    }

    /** @return the priority request message type */
    public String getPriorityMessageType() {
        return priorityMessageType;
    }

    /** @param priorityMessageType the priority request message type */
    public void setPriorityMessageType(String priorityMessageType) {
        this.priorityMessageType = priorityMessageType;
    }

    /** @return END or DELIVER */
    public String getHandleSystemMessages() {
        return handleSystemMessages;
    }

    /** @param handleSystemMessages END or DELIVER */
    public void setHandleSystemMessages(String handleSystemMessages) {
        this.handleSystemMessages = handleSystemMessages;
    }

    /** @return the first reconnect delay */
    public Long getReconnectInitialMillis() {
        return reconnectInitialMillis;
    }

    /** @param reconnectInitialMillis the first reconnect delay */
    public void setReconnectInitialMillis(Long reconnectInitialMillis) {
        this.reconnectInitialMillis = reconnectInitialMillis;
    }

    /** @return the longest reconnect delay */
    public Long getReconnectMaxMillis() {
        return reconnectMaxMillis;
    }

    /** @param reconnectMaxMillis the longest reconnect delay */
    public void setReconnectMaxMillis(Long reconnectMaxMillis) {
        this.reconnectMaxMillis = reconnectMaxMillis;
    }

    /** @return the reconnect jitter */
    public Double getReconnectJitter() {
        return reconnectJitter;
    }

    /** @param reconnectJitter the reconnect jitter */
    public void setReconnectJitter(Double reconnectJitter) {
        this.reconnectJitter = reconnectJitter;
    }

    /** @return the delivery transaction timeout in seconds */
    public Integer getTransactionTimeout() {
        return transactionTimeout;
    }

    /** @param transactionTimeout the delivery transaction timeout in seconds */
    public void setTransactionTimeout(Integer transactionTimeout) {
        this.transactionTimeout = transactionTimeout;
    }

    /** @return whether the RECEIVE commits before delivery */
    public Boolean getCommitBeforeDelivery() {
        return commitBeforeDelivery;
    }

    /** @param commitBeforeDelivery whether the RECEIVE commits before delivery */
    public void setCommitBeforeDelivery(Boolean commitBeforeDelivery) {
        this.commitBeforeDelivery = commitBeforeDelivery;
    }

    @Override
    public String toString() {
        return "ServiceBrokerActivationSpec[queue=" + queue + ", maxReaders=" + maxReaders + ", receiveBatchSize="
                + receiveBatchSize + ", waitTimeout=" + waitTimeout + "]";
    }
}
