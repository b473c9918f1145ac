package org.ssbjca.management;

import java.time.Instant;
import java.util.Date;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.stream.Collectors;
import javax.management.ListenerNotFoundException;
import javax.management.MBeanNotificationInfo;
import javax.management.NotificationEmitter;
import javax.management.NotificationFilter;
import javax.management.NotificationListener;
import jakarta.resource.ResourceException;
import org.ssbjca.brokers.BrokerRegistry;
import org.ssbjca.inbound.EndpointActivation;
import org.ssbjca.inbound.ActivationMetrics;

/**
 * The {@link ActivationMXBean} of one activation: reads and changes it through {@link EndpointActivation}'s public methods,
 * looks at the queue on short-lived connections, and emits the activation's events as notifications.
 */
final class ActivationManagement implements ActivationMXBean, NotificationEmitter {

    /** The most groups {@code PendingConversationGroups} lists. */
    static final int PENDING_LIMIT = 100;

    private final EndpointActivation activation;
    private final ActivationNotifications notifications = new ActivationNotifications();
    private final DeadLetterOperations deadLetters;

    ActivationManagement(EndpointActivation activation) {
        this.activation = activation;
        this.deadLetters = new DeadLetterOperations(activation);
    }

    /** @return where the activation reports its events */
    ActivationNotifications notifications() {
        return notifications;
    }

    @Override
    public String getName() {
        return activation.name();
    }

    @Override
    public String getQueue() {
        return activation.queue();
    }

    @Override
    public String getBackend() {
        return database().source().config().toString();
    }

    @Override
    public int getMaxReaders() {
        return activation.readerCount();
    }

    @Override
    public void setMaxReaders(int maxReaders) {
        try {
            activation.setMaxReaders(maxReaders);
        } catch (ResourceException | RuntimeException e) {
            throw ShortLivedConnection.forClient("setting MaxReaders to " + maxReaders, e);
        }
    }

    @Override
    public int getActiveReaders() {
        return activation.metrics().inFlight().size();
    }

    @Override
    public int getParkedReaders() {
        return activation.parkedReaders();
    }

    @Override
    public int getReceiveBatchSize() {
        return activation.receiveBatchSize();
    }

    @Override
    public void setReceiveBatchSize(int receiveBatchSize) {
        try {
            activation.setReceiveBatchSize(receiveBatchSize);
        } catch (RuntimeException e) {
            throw ShortLivedConnection.forClient("setting ReceiveBatchSize to " + receiveBatchSize, e);
        }
    }

    @Override
    public long getWaitTimeout() {
        return activation.waitTimeoutMillis();
    }

    @Override
    public void setWaitTimeout(long waitTimeout) {
        try {
            activation.setWaitTimeout(waitTimeout);
        } catch (RuntimeException e) {
            throw ShortLivedConnection.forClient("setting WaitTimeout to " + waitTimeout, e);
        }
    }

    @Override
    public boolean isPaused() {
        return activation.isPaused();
    }

    @Override
    public long getReceived() {
        return metrics().received();
    }

    @Override
    public long getDelivered() {
        return metrics().delivered();
    }

    @Override
    public long getCommitted() {
        return metrics().committed();
    }

    @Override
    public long getRolledBack() {
        return metrics().rolledBack();
    }

    @Override
    public long getRedelivered() {
        return metrics().redelivered();
    }

    @Override
    public long getDeadLettered() {
        return metrics().deadLettered();
    }

    @Override
    public long getErrorsReceived() {
        return metrics().errorsReceived();
    }

    @Override
    public long getPriorityRequestsRejected() {
        return metrics().priorityRequestsRejected();
    }

    @Override
    public double getMeanDeliveryMillis() {
        return metrics().meanDeliveryMillis();
    }

    @Override
    public double getP99DeliveryMillis() {
        return metrics().p99DeliveryMillis();
    }

    @Override
    public String getLastError() {
        return metrics().lastError();
    }

    @Override
    public Date getLastErrorTime() {
        Instant at = metrics().lastErrorAt();
        return at == null ? null : Date.from(at);
    }

    @Override
    public long getQueueDepth() {
        return QueueReadings.depth(activation);
    }

    @Override
    public List<PendingGroupInfo> getPendingConversationGroups() {
        return ShortLivedConnection.run(database(), "listing the pending groups of " + getQueue(),
                s -> database().broker().ledger(s.connection()).pendingGroups(getQueue(), PENDING_LIMIT))
                .stream().map(PendingGroupInfo::of).collect(Collectors.toList());
    }

    @Override
    public List<InFlightDeliveryInfo> getInFlightDeliveries() {
        Instant now = Instant.now();
        return activation.metrics().inFlight().entrySet().stream()
                .sorted(Map.Entry.comparingByKey())
                .map(e -> InFlightDeliveryInfo.of(e.getKey(), e.getValue(), now))
                .collect(Collectors.toList());
    }

    @Override
    public void pause() {
        activation.pause();
    }

    @Override
    public void resume() {
        activation.resume();
    }

    @Override
    public void setPriority(String groupId, int priority) {
        UUID group;
        try {
            group = UUID.fromString(groupId == null ? "" : groupId.trim());
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("not a conversation group id (a UUID): '" + groupId + "'");
        }
        if (priority < 0 || priority > 255) {
            throw new IllegalArgumentException("priority must be between 0 and 255, was " + priority);
        }
        ShortLivedConnection.run(database(), "setting the priority of group " + group, s -> {
            s.setPriority(group, priority);
            return null;
        });
        activation.prioritised(group);
    }

    @Override
    public List<DeadLetterInfo> listDeadLetters(int max) {
        return deadLetters.list(0, max);
    }

    @Override
    public List<DeadLetterInfo> listDeadLettersAfter(long afterId, int max) {
        return deadLetters.list(afterId, max);
    }

    @Override
    public boolean redeliverDeadLetter(long id) {
        return deadLetters.redeliver(id);
    }

    @Override
    public int purgeDeadLetters() {
        return deadLetters.purge();
    }

    @Override
    public int purgeDeadLettersOlderThan(long minutes) {
        return deadLetters.purgeOlderThan(minutes);
    }

    @Override
    public int redeliverDeadLetters(String messageType, int max) {
        return deadLetters.redeliverAll(messageType, max);
    }

    // ---- notifications: the activation's events

    @Override
    public void addNotificationListener(NotificationListener listener, NotificationFilter filter, Object handback) {
        notifications.addNotificationListener(listener, filter, handback);
    }

    @Override
    public void removeNotificationListener(NotificationListener listener) throws ListenerNotFoundException {
        notifications.removeNotificationListener(listener);
    }

    @Override
    public void removeNotificationListener(NotificationListener listener, NotificationFilter filter,
            Object handback) throws ListenerNotFoundException {
        notifications.removeNotificationListener(listener, filter, handback);
    }

    @Override
    public MBeanNotificationInfo[] getNotificationInfo() {
        return notifications.getNotificationInfo();
    }

    private ActivationMetrics metrics() {
        return activation.metrics();
    }

    private BrokerRegistry.Entry database() {
        BrokerRegistry.Entry db = activation.database();
        if (db == null) {
            throw new IllegalStateException("the activation " + activation.name() + " has not started");
        }
        return db;
    }
}
