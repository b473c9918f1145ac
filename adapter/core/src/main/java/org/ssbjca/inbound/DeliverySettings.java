package org.ssbjca.inbound;

import jakarta.resource.spi.InvalidPropertyException;
import java.time.Duration;
import org.ssbjca.support.Backoff;

/** The activation properties a reader needs, read once from the validated spec. */
final class DeliverySettings {

    private final String queue;
    private final int batchSize;
    private final Duration waitTimeout;
    private final ServiceBrokerActivationSpec.SystemMessages systemMessages;
    private final boolean commitBeforeDelivery;
    private final long reconnectInitial;
    private final long reconnectMax;
    private final double reconnectJitter;
    private final int transactionTimeout;

    DeliverySettings(ServiceBrokerActivationSpec spec) throws InvalidPropertyException {
        queue = spec.getQueue().trim();
        batchSize = spec.getReceiveBatchSize();
        waitTimeout = Duration.ofMillis(spec.getWaitTimeout());
        systemMessages = spec.systemMessages();
        commitBeforeDelivery = Boolean.TRUE.equals(spec.getCommitBeforeDelivery());
        reconnectInitial = spec.getReconnectInitialMillis();
        reconnectMax = spec.getReconnectMaxMillis();
        reconnectJitter = spec.getReconnectJitter();
        transactionTimeout = spec.getTransactionTimeout();
    }

    String queue() {
        return queue;
    }

    int batchSize() {
        return batchSize;
    }

    Duration waitTimeout() {
        return waitTimeout;
    }

    boolean endsOnSystemMessages() {
        return systemMessages == ServiceBrokerActivationSpec.SystemMessages.END;
    }

    boolean commitBeforeDelivery() {
        return commitBeforeDelivery;
    }

    int transactionTimeout() {
        return transactionTimeout;
    }

    Backoff newBackoff() {
        return new Backoff(reconnectInitial, reconnectMax, reconnectJitter);
    }
}
