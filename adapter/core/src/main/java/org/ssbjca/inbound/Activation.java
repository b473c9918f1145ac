package org.ssbjca.inbound;

import jakarta.resource.ResourceException;
import jakarta.resource.spi.endpoint.MessageEndpointFactory;
import jakarta.resource.spi.work.WorkException;
import java.lang.reflect.Method;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import org.jboss.logging.Logger;
import org.ssbjca.adapter.BrokerRegistry;
import org.ssbjca.adapter.ServiceBrokerResourceAdapter;
import org.ssbjca.adapter.WorkManagerRunner;
import org.ssbjca.api.BrokerMessage;
import org.ssbjca.api.BrokerMessageListener;
import org.ssbjca.api.ConversationGroupListener;

/**
 * One message-driven bean fed from one queue: its readers, each a long-running container work with its own
 * connection. Stopping it stops the readers and waits, bounded, for the deliveries in flight.
 */
public final class Activation {

    private static final Logger LOG = Logger.getLogger(Activation.class);
    private static final long STOP_WAIT_MILLIS = 30_000;

    private final ServiceBrokerResourceAdapter ra;
    private final MessageEndpointFactory factory;
    private final ServiceBrokerActivationSpec spec;
    private final List<QueueReader> readers = new CopyOnWriteArrayList<>();
    private final Semaphore reconnectGate = new Semaphore(1);
    private final DeliverySettings settings;
    private BrokerRegistry.Entry database;
    private Method method;
    private boolean batchListener;
    private boolean transacted;
    private volatile boolean stopped;

    /**
     * @param ra the resource adapter
     * @param factory the container's endpoint factory for the bean
     * @param spec the validated activation properties
     * @throws ResourceException if a property is invalid
     */
    public Activation(ServiceBrokerResourceAdapter ra, MessageEndpointFactory factory, ServiceBrokerActivationSpec spec)
            throws ResourceException {
        this.ra = ra;
        this.factory = factory;
        this.spec = spec;
        this.settings = new DeliverySettings(spec);
    }

    /**
     * Starts the readers.
     *
     * @throws ResourceException if the bean implements no listener interface of this adapter, or work cannot start
     */
    public void start() throws ResourceException {
        database = ra.registry().get(spec.database());
        Class<?> endpointClass = factory.getEndpointClass();
        batchListener = endpointClass != null && ConversationGroupListener.class.isAssignableFrom(endpointClass);
        try {
            method = batchListener
                    ? ConversationGroupListener.class.getMethod("onMessages", List.class)
                    : BrokerMessageListener.class.getMethod("onMessage", BrokerMessage.class);
            transacted = factory.isDeliveryTransacted(method);
        } catch (NoSuchMethodException e) {
            throw new ResourceException("the bean " + factory.getActivationName() + " does not implement "
                    + method.getDeclaringClass().getName(), e);
        }
        for (int i = 0; i < spec.getMaxReaders(); i++) {
            startReader(i + 1);
        }
        LOG.infof("SSBJCA0010: activated %s on queue %s of %s: %d reader(s), %s delivery, %s listener",
                name(), spec.getQueue(), database.source().config(), spec.getMaxReaders(),
                transacted ? (settings.commitBeforeDelivery() ? "receive-commits-first" : "XA transacted")
                        : "local-transaction", batchListener ? "conversation group" : "per message");
    }

    private void startReader(int id) throws ResourceException {
        QueueReader reader = new QueueReader(this, id);
        readers.add(reader);
        try {
            ra.workManager().scheduleWork(WorkManagerRunner.longRunning(reader.name(), reader, reader::stop));
        } catch (WorkException e) {
            readers.remove(reader);
            throw new ResourceException("cannot start reader " + reader.name() + ": " + e.getMessage(), e);
        }
    }

    /** Stops every reader and waits (at most 30 s) for deliveries in flight to finish. */
    public void stop() {
        stopped = true;
        readers.forEach(QueueReader::stop);
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(STOP_WAIT_MILLIS);
        for (QueueReader r : readers) {
            long left = TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime());
            if (!r.awaitStopped(Math.max(left, 0))) {
                LOG.warnf("SSBJCA0011: reader %s did not stop within %d ms", r.name(), STOP_WAIT_MILLIS);
            }
        }
        readers.clear();
        LOG.infof("SSBJCA0012: deactivated %s on queue %s", name(), spec.getQueue());
    }

    boolean isStopped() {
        return stopped;
    }

    MessageEndpointFactory factory() {
        return factory;
    }

    ServiceBrokerActivationSpec spec() {
        return spec;
    }

    DeliverySettings settings() {
        return settings;
    }

    BrokerRegistry.Entry database() {
        return database;
    }

    Method method() {
        return method;
    }

    boolean batchListener() {
        return batchListener;
    }

    boolean transacted() {
        return transacted;
    }

    /** @return the key of the transaction active on this thread, or null */
    Object transactionKey() {
        return ra.transactionKey();
    }

    /** Only one reader of an activation reconnects at a time; the others wait for it. */
    Semaphore reconnectGate() {
        return reconnectGate;
    }

    /** @return a short name for logs: the bean's activation name and queue */
    String name() {
        Class<?> bean = factory.getEndpointClass();
        return (bean == null ? factory.getActivationName() : bean.getSimpleName()) + "@" + spec.getQueue();
    }
}
