package org.ssbjca.fakes;

import jakarta.resource.spi.UnavailableException;
import jakarta.resource.spi.endpoint.MessageEndpoint;
import jakarta.resource.spi.endpoint.MessageEndpointFactory;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.util.concurrent.atomic.AtomicInteger;
import javax.transaction.xa.XAException;
import javax.transaction.xa.XAResource;
import javax.transaction.xa.Xid;

/**
 * Plays the container for a message-driven bean: its endpoints act as the transaction manager around each
 * delivery (start the branch in {@code beforeDelivery}, one-phase commit or roll back in {@code afterDelivery}),
 * roll back when the bean throws or calls {@link #setRollbackOnly()}, and check that before and after delivery are
 * always paired.
 */
public final class FakeEndpointFactory implements MessageEndpointFactory {

    private final Class<?> listenerInterface;
    private final Object bean;
    private final boolean transacted;
    private final FakeTransactions transactions;
    /** Deliveries that committed. */
    public final AtomicInteger commits = new AtomicInteger();
    /** Deliveries that rolled back. */
    public final AtomicInteger rollbacks = new AtomicInteger();
    /** Calls out of order: afterDelivery without beforeDelivery, or two beforeDelivery in a row. */
    public final AtomicInteger pairingErrors = new AtomicInteger();
    /** Endpoints created and not released. */
    public final AtomicInteger liveEndpoints = new AtomicInteger();

    /**
     * @param listenerInterface the bean's listener interface
     * @param bean an implementation of it
     * @param transacted whether the listener method is container-transacted
     * @param transactions the fake registry the adapter reads transaction keys from
     */
    public FakeEndpointFactory(Class<?> listenerInterface, Object bean, boolean transacted,
            FakeTransactions transactions) {
        this.listenerInterface = listenerInterface;
        this.bean = bean;
        this.transacted = transacted;
        this.transactions = transactions;
    }

    /** Marks the delivery in progress on this thread for rollback, like {@code MessageDrivenContext}. */
    public static void setRollbackOnly() {
        FakeTransactions.ROLLBACK_ONLY.set(Boolean.TRUE);
    }

    @Override
    public MessageEndpoint createEndpoint(XAResource xaResource) throws UnavailableException {
        return createEndpoint(xaResource, 0);
    }

    @Override
    public MessageEndpoint createEndpoint(XAResource xaResource, long timeout) throws UnavailableException {
        liveEndpoints.incrementAndGet();
        Endpoint state = new Endpoint(xaResource);
        return (MessageEndpoint) Proxy.newProxyInstance(getClass().getClassLoader(),
                new Class<?>[] {MessageEndpoint.class, listenerInterface}, (proxy, method, args) -> {
                    switch (method.getName()) {
                        case "beforeDelivery":
                            state.before();
                            return null;
                        case "afterDelivery":
                            state.after();
                            return null;
                        case "release":
                            liveEndpoints.decrementAndGet();
                            return null;
                        default:
                            if (method.getDeclaringClass() == Object.class) {
                                return method.invoke(state, args);
                            }
                            try {
                                return method.invoke(bean, args);
                            } catch (InvocationTargetException e) {
                                state.failed = true;
                                throw e.getCause();
                            }
                    }
                });
    }

    @Override
    public boolean isDeliveryTransacted(Method method) {
        return transacted;
    }

    @Override
    public String getActivationName() {
        return "fake-" + listenerInterface.getSimpleName();
    }

    @Override
    public Class<?> getEndpointClass() {
        return bean.getClass();
    }

    private final class Endpoint {
        private final XAResource xa;
        private Xid xid;
        private boolean inDelivery;
        boolean failed;

        Endpoint(XAResource xa) {
            this.xa = xa;
        }

        void before() throws XAException {
            if (inDelivery) {
                pairingErrors.incrementAndGet();
            }
            inDelivery = true;
            failed = false;
            FakeTransactions.ROLLBACK_ONLY.set(Boolean.FALSE);
            if (transacted) {
                xid = TestXid.next("fake-tx");
                xa.start(xid, XAResource.TMNOFLAGS);
                transactions.begin(xid);
            }
        }

        void after() throws XAException {
            if (!inDelivery) {
                pairingErrors.incrementAndGet();
            }
            inDelivery = false;
            if (!transacted) {
                return;
            }
            transactions.end();
            boolean rollback = failed || FakeTransactions.ROLLBACK_ONLY.get();
            try {
                if (rollback) {
                    xa.end(xid, XAResource.TMFAIL);
                    xa.rollback(xid);
                    rollbacks.incrementAndGet();
                } else {
                    xa.end(xid, XAResource.TMSUCCESS);
                    try {
                        xa.commit(xid, true);
                        commits.incrementAndGet();
                    } catch (XAException e) {
                        rollbacks.incrementAndGet();
                        throw e;
                    }
                }
            } finally {
                xid = null;
            }
        }
    }
}
