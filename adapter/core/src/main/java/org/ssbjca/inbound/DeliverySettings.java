package org.ssbjca.inbound;

import jakarta.resource.spi.InvalidPropertyException;
import java.time.Duration;
import org.ssbjca.brokers.Config;
import org.ssbjca.support.Backoff;

/**
 * The activation properties a reader needs, read once from the validated spec. Batch size and wait timeout can be
 * changed while the readers run (JMX); a reader picks the new value up at its next RECEIVE.
 */
public final class DeliverySettings {

    /** The range of {@code maxReaders}, at deployment and through JMX. */
    public static final int MIN_READERS = 1;
    public static final int MAX_READERS = 256;
    /** The range of {@code receiveBatchSize}. */
    static final int MIN_BATCH = 1;
    static final int MAX_BATCH = 10_000;
    /** The range of {@code waitTimeout}, in ms. */
    static final long MIN_WAIT = 100;
    static final long MAX_WAIT = 600_000;

    private final String queue;
    private volatile int batchSize;
    /** {@code waitTimeout}, kept as a Duration: every turn reads it. */
    private volatile Duration waitTimeout;
    private final boolean endsOnSystemMessages;
    private final boolean commitBeforeDelivery;
    private final int maxDeliveryAttempts;
    private final boolean endConversationOnDeadLetter;
    private final boolean priorityEnabled;
    private final String priorityMessageType;
    private final long reconnectInitial;
    private final long reconnectMax;
    private final double reconnectJitter;
    private final int transactionTimeout;
    private final RedeliveryPolicy redelivery;
    private final String deadLetterService;
    private final FailurePolicy failurePolicy;
    private final BreakerSettings breaker;

    /**
     * @param spec the activation spec
     * @param loaders where the exception classes its failure policy names may be (the bean's, the thread's, the
     *        adapter's; nulls skipped)
     * @throws InvalidPropertyException naming a bad property
     */
    DeliverySettings(ServiceBrokerActivationSpec spec, ClassLoader... loaders) throws InvalidPropertyException {
        ActivationValues values = new ActivationValues(spec);
        queue = spec.getQueue().trim();
        batchSize = values.receiveBatchSize();
        waitTimeout = Duration.ofMillis(values.waitTimeoutMillis());
        endsOnSystemMessages = values.systemMessages() == ServiceBrokerActivationSpec.SystemMessages.END;
        commitBeforeDelivery = values.commitBeforeDelivery();
        maxDeliveryAttempts = values.maxDeliveryAttempts();
        endConversationOnDeadLetter =
                values.deadLetterMode() == ServiceBrokerActivationSpec.DeadLetter.TABLE_AND_END_CONVERSATION;
        priorityEnabled = values.priorityEnabled();
        priorityMessageType = Config.blankToNull(spec.getPriorityMessageType());
        reconnectInitial = values.reconnectInitialMillis();
        reconnectMax = values.reconnectMaxMillis();
        reconnectJitter = values.reconnectJitter();
        transactionTimeout = values.transactionTimeoutSeconds();
        redelivery = values.redeliveryPolicy();
        deadLetterService = values.deadLetterService();
        failurePolicy = values.failurePolicy(loaders);
        breaker = values.breaker(spec.database().kind() == org.ssbjca.backend.BackendKind.SQLSERVER);
    }

    /** Returns what each failed delivery means. */
    FailurePolicy failurePolicy() {
        return failurePolicy;
    }

    /** Returns the circuit breaker's settings. */
    BreakerSettings breaker() {
        return breaker;
    }

    String queue() {
        return queue;
    }

    int batchSize() {
        return batchSize;
    }

    void batchSize(int n) {
        if (n < MIN_BATCH || n > MAX_BATCH) {
            throw new IllegalArgumentException("ReceiveBatchSize must be between " + MIN_BATCH + " and " + MAX_BATCH
                    + ", was " + n);
        }
        batchSize = n;
    }

    Duration waitTimeout() {
        return waitTimeout;
    }

    void waitTimeout(long millis) {
        if (millis < MIN_WAIT || millis > MAX_WAIT) {
            throw new IllegalArgumentException("WaitTimeout must be between " + MIN_WAIT + " and " + MAX_WAIT
                    + " ms, was " + millis);
        }
        waitTimeout = Duration.ofMillis(millis);
    }

    boolean endsOnSystemMessages() {
        return endsOnSystemMessages;
    }

    boolean commitBeforeDelivery() {
        return commitBeforeDelivery;
    }

    int maxDeliveryAttempts() {
        return maxDeliveryAttempts;
    }

    boolean endConversationOnDeadLetter() {
        return endConversationOnDeadLetter;
    }

    boolean priorityEnabled() {
        return priorityEnabled;
    }

    /** Returns the priority request message type, or null when requests are not looked for. */
    String priorityMessageType() {
        return priorityEnabled ? priorityMessageType : null;
    }

    int transactionTimeout() {
        return transactionTimeout;
    }

    /** Returns the service that also receives each dead letter, or null. */
    String deadLetterService() {
        return deadLetterService;
    }

    /** Returns how long a group waits after a failed delivery. */
    RedeliveryPolicy redelivery() {
        return redelivery;
    }

    Backoff newBackoff() {
        return new Backoff(reconnectInitial, reconnectMax, reconnectJitter);
    }
}
