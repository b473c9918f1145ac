package org.ssbjca.management;

import java.util.concurrent.atomic.AtomicLong;
import javax.management.MBeanNotificationInfo;
import javax.management.Notification;
import javax.management.NotificationBroadcasterSupport;
import javax.management.openmbean.CompositeDataSupport;
import javax.management.openmbean.CompositeType;
import javax.management.openmbean.OpenDataException;
import javax.management.openmbean.OpenType;
import javax.management.openmbean.SimpleType;
import org.ssbjca.api.BrokerMessage;
import org.ssbjca.inbound.ActivationEvents;
import org.ssbjca.support.AdapterLog;

/**
 * Turns what an activation reports into JMX notifications, sent by the activation's MBean. The user data of each is
 * {@code CompositeData}, so that any JMX client reads it without the adapter's classes:
 *
 * <table>
 *   <caption>notification types</caption>
 *   <tr><th>type</th><th>when</th><th>user data items</th></tr>
 *   <tr><td>{@value #DEAD_LETTERED}</td><td>a message was moved to the dead-letter table</td>
 *       <td>queue, conversationHandle, conversationGroup, sequenceNumber, messageType, attempts</td></tr>
 *   <tr><td>{@value #QUEUE_DISABLED}</td><td>a reader found its queue disabled (it retries with backoff)</td>
 *       <td>queue</td></tr>
 *   <tr><td>{@value #RECONNECTING}</td><td>a reader lost its connection and reconnects after a delay</td>
 *       <td>queue, reader, delayMillis, error</td></tr>
 *   <tr><td>{@value #BREAKER_OPENED}</td><td>the circuit breaker opened (a run of failures, or a failed probe): the
 *       readers pause</td><td>activation, failures, probeInMillis, error</td></tr>
 *   <tr><td>{@value #BREAKER_CLOSED}</td><td>the circuit breaker closed (a delivery succeeded): the readers go on</td>
 *       <td>activation, openMillis</td></tr>
 * </table>
 *
 * <p>Never blocks the reader that reports: listeners are called on its thread (remote JMX connectors only queue the
 * notification) and whatever they throw is logged and dropped.
 */
public final class ActivationNotifications extends NotificationBroadcasterSupport implements ActivationEvents {

    /** A message was moved to the dead-letter table. */
    public static final String DEAD_LETTERED = "org.ssbjca.message.deadLettered";
    /** A reader found its queue disabled. */
    public static final String QUEUE_DISABLED = "org.ssbjca.queue.disabled";
    /** A reader lost its connection and reconnects. */
    public static final String RECONNECTING = "org.ssbjca.reader.reconnecting";
    /** The circuit breaker opened. */
    public static final String BREAKER_OPENED = "org.ssbjca.breaker.opened";
    /** The circuit breaker closed. */
    public static final String BREAKER_CLOSED = "org.ssbjca.breaker.closed";

    private static final AdapterLog LOG = AdapterLog.of(ActivationNotifications.class);
    private static final String[] DEAD_LETTER_ITEMS = {"queue", "conversationHandle", "conversationGroup",
        "sequenceNumber", "messageType", "attempts"};
    private static final CompositeType DEAD_LETTER_DATA = type("DeadLettered", "a dead-lettered message",
            DEAD_LETTER_ITEMS, new OpenType<?>[] {SimpleType.STRING, SimpleType.STRING, SimpleType.STRING,
                SimpleType.LONG, SimpleType.STRING, SimpleType.INTEGER});
    private static final String[] QUEUE_ITEMS = {"queue"};
    private static final CompositeType QUEUE_DATA = type("QueueDisabled", "a disabled queue", QUEUE_ITEMS,
            new OpenType<?>[] {SimpleType.STRING});
    private static final String[] RECONNECT_ITEMS = {"queue", "reader", "delayMillis", "error"};
    private static final CompositeType RECONNECT_DATA = type("Reconnecting", "a reader reconnecting",
            RECONNECT_ITEMS, new OpenType<?>[] {SimpleType.STRING, SimpleType.STRING, SimpleType.LONG,
                SimpleType.STRING});

    private static final String[] OPENED_ITEMS = {"activation", "failures", "probeInMillis", "error"};
    private static final CompositeType OPENED_DATA = type("BreakerOpened", "a circuit breaker opened", OPENED_ITEMS,
            new OpenType<?>[] {SimpleType.STRING, SimpleType.INTEGER, SimpleType.LONG, SimpleType.STRING});
    private static final String[] CLOSED_ITEMS = {"activation", "openMillis"};
    private static final CompositeType CLOSED_DATA = type("BreakerClosed", "a circuit breaker closed", CLOSED_ITEMS,
            new OpenType<?>[] {SimpleType.STRING, SimpleType.LONG});

    private final AtomicLong sequence = new AtomicLong();
    private volatile Object source;

    /** Creates the notifications of one activation; their source is set by {@link #source(Object)}. */
    public ActivationNotifications() {
        super(info());
    }

    /** @param mbeanName the name the notifications carry as their source */
    void source(Object mbeanName) {
        this.source = mbeanName;
    }

    @Override
    public void deadLettered(String queue, BrokerMessage message, int attempts) {
        send(DEAD_LETTERED, "message " + message.messageSequenceNumber() + " of conversation "
                + message.conversationHandle() + " (" + message.messageTypeName() + ") on " + queue + " failed "
                + attempts + " deliveries and was dead-lettered",
                DEAD_LETTER_DATA, DEAD_LETTER_ITEMS, queue, String.valueOf(message.conversationHandle()),
                String.valueOf(message.conversationGroupId()), message.messageSequenceNumber(),
                message.messageTypeName(), attempts);
    }

    @Override
    public void queueDisabled(String queue) {
        send(QUEUE_DISABLED, "queue " + queue + " is disabled: RECEIVE is refused until it is enabled again",
                QUEUE_DATA, QUEUE_ITEMS, queue);
    }

    @Override
    public void reconnecting(String queue, String reader, long delayMillis, String error) {
        send(RECONNECTING, reader + " lost its connection (" + error + "); reconnecting in " + delayMillis + " ms",
                RECONNECT_DATA, RECONNECT_ITEMS, queue, reader, delayMillis, error);
    }

    @Override
    public void breakerOpened(String activation, int failures, long probeInMillis, String lastError) {
        send(BREAKER_OPENED, activation + ": circuit breaker open after " + failures + " failed deliveries in a row ("
                + lastError + "); the readers pause, one probes in " + probeInMillis + " ms", OPENED_DATA,
                OPENED_ITEMS, activation, failures, probeInMillis, String.valueOf(lastError));
    }

    @Override
    public void breakerClosed(String activation, long openMillis) {
        send(BREAKER_CLOSED, activation + ": circuit breaker closed after " + openMillis + " ms; the readers go on",
                CLOSED_DATA, CLOSED_ITEMS, activation, openMillis);
    }

    private void send(String type, String message, CompositeType dataType, String[] items, Object... values) {
        try {
            Notification n = new Notification(type, source == null ? this : source, sequence.incrementAndGet(),
                    System.currentTimeMillis(), message);
            n.setUserData(new CompositeDataSupport(dataType, items, values));
            sendNotification(n);
        } catch (OpenDataException | RuntimeException e) {
            LOG.notificationNotSent(e, type);
        }
    }

    @Override
    protected void handleNotification(javax.management.NotificationListener listener, Notification notif,
            Object handback) {
        try {
            listener.handleNotification(notif, handback);
        } catch (RuntimeException e) {
            LOG.notificationListenerFailed(e, notif.getType());
        }
    }

    private static MBeanNotificationInfo[] info() {
        return new MBeanNotificationInfo[] {
            new MBeanNotificationInfo(new String[] {DEAD_LETTERED}, Notification.class.getName(),
                    "A message failed maxDeliveryAttempts deliveries and was moved to the dead-letter table"),
            new MBeanNotificationInfo(new String[] {QUEUE_DISABLED}, Notification.class.getName(),
                    "A reader found its queue disabled; it retries with backoff"),
            new MBeanNotificationInfo(new String[] {RECONNECTING}, Notification.class.getName(),
                    "A reader lost its connection to the broker database and reconnects after a delay"),
            new MBeanNotificationInfo(new String[] {BREAKER_OPENED}, Notification.class.getName(),
                    "The activation's circuit breaker opened: its readers pause until a probe succeeds"),
            new MBeanNotificationInfo(new String[] {BREAKER_CLOSED}, Notification.class.getName(),
                    "The activation's circuit breaker closed: a delivery succeeded and its readers go on")
        };
    }

    private static CompositeType type(String name, String description, String[] items, OpenType<?>[] types) {
        try {
            return new CompositeType(name, description, items, items, types);
        } catch (OpenDataException e) {
            throw new ExceptionInInitializerError(e);
        }
    }
}
