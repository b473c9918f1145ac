package org.ssbjca.inbound;

import jakarta.resource.spi.UnavailableException;
import jakarta.resource.spi.endpoint.MessageEndpoint;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.jboss.logging.Logger;
import org.ssbjca.api.BrokerException;
import org.ssbjca.api.BrokerMessage;
import org.ssbjca.api.BrokerMessageListener;
import org.ssbjca.api.ConversationEndedException;
import org.ssbjca.api.ConversationGroupListener;
import org.ssbjca.api.QueueDisabledException;
import org.ssbjca.api.ReceiveRequest;
import org.ssbjca.support.Backoff;

/**
 * One reader of an activation: a loop on a container work thread that RECEIVEs one conversation group's messages
 * and delivers them, inside the container's transaction when the bean's method is transacted:
 * {@code beforeDelivery} (the container starts the transaction and enlists this reader's XA resource), RECEIVE on
 * this reader's connection, the listener call, {@code afterDelivery} (the container commits or rolls back) — always
 * paired. A failure closes the connection and retries with capped exponential backoff and jitter.
 */
final class QueueReader implements Runnable {

    private static final Logger LOG = Logger.getLogger(QueueReader.class);

    private final Activation activation;
    private final DeliverySettings settings;
    private final String name;
    private final Backoff backoff;
    private final CountDownLatch finished = new CountDownLatch(1);
    private volatile boolean stopped;
    private volatile ReaderConnection connection;
    private MessageEndpoint endpoint;

    QueueReader(Activation activation, int id) {
        this.activation = activation;
        this.settings = activation.settings();
        this.name = "ssb-jca reader " + id + " of " + activation.name();
        this.backoff = settings.newBackoff();
    }

    String name() {
        return name;
    }

    @Override
    public void run() {
        try {
            while (!stopped) {
                try {
                    ensureReady();
                    cycle();
                    backoff.reset();
                } catch (Exception e) {
                    if (stopped) {
                        break;
                    }
                    long delay = backoff.nextDelayMillis();
                    if (e instanceof UnavailableException) {
                        LOG.debugf("SSBJCA0021: %s: endpoint unavailable (%s); retrying in %d ms", name,
                                e.getMessage(), delay);
                    } else if (e instanceof BrokerException) {
                        LOG.warnf("SSBJCA0025: %s: %s (failure %d in a row); retrying in %d ms", name,
                                e.getMessage(), backoff.failures(), delay);
                        LOG.debugf(e, "SSBJCA0025: %s", name);
                    } else {
                        LOG.warnf(e, "SSBJCA0020: %s failed (failure %d in a row); reconnecting in %d ms", name,
                                backoff.failures(), delay);
                    }
                    discard();
                    pause(delay);
                }
            }
        } finally {
            discard();
            finished.countDown();
        }
    }

    private void ensureReady() throws Exception {
        if (connection == null) {
            activation.reconnectGate().acquire();
            try {
                if (!stopped) {
                    connection = ReaderConnection.open(activation.database());
                    requireQueueReady();
                }
            } finally {
                activation.reconnectGate().release();
            }
        }
        if (endpoint == null && !stopped) {
            endpoint = activation.factory().createEndpoint(activation.transacted() ? connection.xaResource() : null);
        }
    }

    /**
     * Checks, outside any delivery, that the queue exists and is enabled, so that a missing or disabled queue is
     * reported once per retry instead of failing transaction after transaction.
     */
    private void requireQueueReady() {
        if (!activation.database().broker().admin(connection.connection()).isQueueEnabled(settings.queue())) {
            throw new QueueDisabledException(settings.queue(), null);
        }
    }

    private ReceiveRequest request() {
        return ReceiveRequest.from(settings.queue()).top(settings.batchSize()).timeout(settings.waitTimeout());
    }

    /** One transaction: RECEIVE, deliver, commit or roll back. */
    private void cycle() throws Exception {
        if (stopped) {
            return;
        }
        if (!activation.transacted()) {
            localCycle();
            return;
        }
        endpoint.beforeDelivery(activation.method());
        try {
            List<BrokerMessage> batch;
            try {
                batch = connection.session().receive(request());
            } catch (RuntimeException e) {
                connection.setRollbackOnly();
                throw e;
            }
            if (!batch.isEmpty()) {
                DeliveryContext.enter(activation.database().source().config(), connection.session(),
                        activation.transactionKey());
                try {
                    deliver(batch);
                } finally {
                    DeliveryContext.leave();
                }
            }
        } finally {
            endpoint.afterDelivery();
        }
    }

    /** A bean whose method is not transacted: a local transaction around RECEIVE and delivery (at least once). */
    private void localCycle() throws Exception {
        connection.connection().setAutoCommit(false);
        List<BrokerMessage> batch = connection.session().receive(request());
        if (batch.isEmpty()) {
            connection.commitLocal();
            return;
        }
        boolean ok = false;
        endpoint.beforeDelivery(activation.method());
        try {
            ok = deliver(batch);
        } finally {
            try {
                endpoint.afterDelivery();
            } finally {
                if (ok) {
                    connection.commitLocal();
                } else {
                    connection.rollbackLocal();
                }
            }
        }
    }

    /**
     * Delivers the application's messages, then ends this side of every conversation whose EndDialog or Error came
     * in the batch (when {@code handleSystemMessages} is END).
     *
     * @return whether the listener returned normally
     */
    private boolean deliver(List<BrokerMessage> batch) throws SQLException {
        List<BrokerMessage> application = new ArrayList<>(batch.size());
        List<BrokerMessage> ends = new ArrayList<>();
        for (BrokerMessage m : batch) {
            if (settings.endsOnSystemMessages() && (m.isEndDialog() || m.isError())) {
                ends.add(m);
            } else {
                application.add(m);
            }
        }
        try {
            if (!application.isEmpty()) {
                if (activation.batchListener()) {
                    ((ConversationGroupListener) endpoint).onMessages(Collections.unmodifiableList(application));
                } else {
                    for (BrokerMessage m : application) {
                        ((BrokerMessageListener) endpoint).onMessage(m);
                    }
                }
            }
        } catch (RuntimeException e) {
            LOG.debugf(e, "SSBJCA0022: %s: the listener failed on %s; the transaction rolls back", name,
                    application.get(0));
            return false;
        }
        for (BrokerMessage m : ends) {
            try {
                connection.session().endConversation(m.conversationHandle(), null, null);
            } catch (ConversationEndedException alreadyEnded) {
                LOG.debugf("SSBJCA0023: %s: conversation %s was already ended", name, m.conversationHandle());
            }
        }
        return true;
    }

    void stop() {
        stopped = true;
        ReaderConnection c = connection;
        if (c != null) {
            c.cancel();
        }
    }

    boolean awaitStopped(long millis) {
        try {
            return finished.await(millis, TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    private void discard() {
        if (endpoint != null) {
            try {
                endpoint.release();
            } catch (RuntimeException e) {
                LOG.debugf(e, "SSBJCA0024: %s: releasing the endpoint failed", name);
            }
            endpoint = null;
        }
        ReaderConnection c = connection;
        connection = null;
        if (c != null) {
            c.close();
        }
    }

    private void pause(long millis) {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(millis);
        while (!stopped && System.nanoTime() < deadline) {
            try {
                Thread.sleep(Math.min(100, Math.max(1, TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime()))));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }
}
