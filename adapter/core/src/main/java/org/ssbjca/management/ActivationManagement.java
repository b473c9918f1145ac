package org.ssbjca.management;

import java.time.Instant;
import java.util.Date;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
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
    /**
     * The longest {@code redeliverDeadLetter} waits for the outcome: a reader waiting in its RECEIVE is woken for the
     * request, so only deliveries in progress on every reader make it wait. Under the 60 s after which a remote JMX
     * client ({@code remote+http}) gives up on a call.
     */
    static final long REDELIVERY_WAIT_MILLIS = 30_000;
    /** How often {@code redeliverDeadLetter} wakes a reader again while its request waits for one. */
    private static final long REWAKE_MILLIS = 250;

    private final EndpointActivation activation;
    private final ActivationNotifications notifications = new ActivationNotifications();

    ActivationManagement(EndpointActivation activation) {
        this.activation = activation;
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
        return ShortLivedConnection.run(database(), "reading the depth of " + getQueue(),
                s -> database().broker().admin(s.connection()).queueDepth(getQueue()));
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
        if (max < 1 || max > 10_000) {
            throw new IllegalArgumentException("max must be between 1 and 10000, was " + max);
        }
        return ShortLivedConnection.run(database(), "listing the dead letters of " + getQueue(),
                s -> database().broker().ledger(s.connection()).deadLetters(getQueue(), max))
                .stream().map(DeadLetterInfo::of).collect(Collectors.toList());
    }

    @Override
    public boolean redeliverDeadLetter(long id) {
        if (activation.isPaused()) {
            throw new IllegalStateException("the activation is paused: resume it before redelivering");
        }
        CompletableFuture<Boolean> outcome = activation.redeliver(id);
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(REDELIVERY_WAIT_MILLIS);
        try {
            while (true) {
                long left = TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime());
                try {
                    return outcome.get(Math.max(1, Math.min(left, REWAKE_MILLIS)), TimeUnit.MILLISECONDS);
                } catch (TimeoutException e) {
                    if (left <= REWAKE_MILLIS) {
                        throw new IllegalStateException("dead letter " + id + " was not redelivered within "
                                + REDELIVERY_WAIT_MILLIS + " ms (no reader was free); the request stays queued "
                                + "for the next free reader");
                    }
                    activation.wakeForRedeliveries();
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while redelivering dead letter " + id);
        } catch (ExecutionException e) {
            throw ShortLivedConnection.forClient("redelivering dead letter " + id, e);
        }
    }

    @Override
    public int purgeDeadLetters() {
        return ShortLivedConnection.run(database(), "purging the dead letters of " + getQueue(),
                s -> database().broker().ledger(s.connection()).purgeDeadLetters(getQueue()));
    }

    @Override
    public int purgeDeadLettersOlderThan(long minutes) {
        if (minutes < 0) {
            throw new IllegalArgumentException("minutes must be 0 or more, was " + minutes);
        }
        java.time.Instant before = java.time.Instant.now().minus(java.time.Duration.ofMinutes(minutes));
        return ShortLivedConnection.run(database(), "purging the dead letters of " + getQueue() + " older than "
                + minutes + " min", s -> database().broker().ledger(s.connection())
                .purgeDeadLettersBefore(getQueue(), before));
    }

    @Override
    public int redeliverDeadLetters(String messageType, int max) {
        if (max < 1 || max > 10_000) {
            throw new IllegalArgumentException("max must be between 1 and 10000, was " + max);
        }
        String type = messageType == null || messageType.isBlank() ? null : messageType.trim();
        List<Long> ids = listDeadLetters(10_000).stream()
                .filter(d -> type == null || type.equals(d.getMessageType()))
                .limit(max)
                .map(DeadLetterInfo::getId)
                .collect(Collectors.toList());
        int delivered = 0;
        for (long id : ids) {
            if (!redeliverDeadLetter(id)) {
                break;
            }
            delivered++;
        }
        return delivered;
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
