package org.ssbjca.fakes;

import jakarta.resource.spi.UnavailableException;
import jakarta.resource.spi.endpoint.MessageEndpoint;
import jakarta.resource.spi.endpoint.MessageEndpointFactory;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import javax.transaction.xa.XAException;
import javax.transaction.xa.XAResource;
import javax.transaction.xa.Xid;

/**
 * Plays the container for a message-driven bean: its endpoints act as the transaction manager around each
 * delivery (start the branch in {@code beforeDelivery}, one-phase commit or roll back in {@code afterDelivery}),
 * roll back when the bean throws or calls {@link #setRollbackOnly()}, and check that before and after delivery are
 * always paired. A bean can {@link #enlist} another resource in its delivery's transaction, as the container's
 * connection manager enlists an outbound connection: it joins the branch of a resource that {@code isSameRM}, else
 * gets a branch of its own, and a transaction of several branches commits in two phases.
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
    /**
     * Deliveries the container tried to commit and a branch refused (a one-phase commit that threw): with WildFly,
     * each is a warning of Narayana's ({@code ARJUNA016039}) and a failed {@code afterDelivery}.
     */
    public final AtomicInteger refusedCommits = new AtomicInteger();
    /** Calls out of order: afterDelivery without beforeDelivery, or two beforeDelivery in a row. */
    public final AtomicInteger pairingErrors = new AtomicInteger();
    /** Endpoints created and not released. */
    public final AtomicInteger liveEndpoints = new AtomicInteger();
    /** Endpoints created, released or not. */
    public final AtomicInteger createdEndpoints = new AtomicInteger();
    /** The name of the thread that created each endpoint, in order: a reader's work thread is named after it. */
    public final List<String> creatingThreads = new CopyOnWriteArrayList<>();
    /** What the transaction manager asked of each branch of the deliveries with a resource {@link #enlist}ed. */
    public final List<String> xaCalls = new CopyOnWriteArrayList<>();

    private static final ThreadLocal<Endpoint> DELIVERING = new ThreadLocal<>();
    /**
     * When set, every call of the listener method fails before it reaches the bean, the way WildFly's endpoint fails
     * while the bean's component is stopping (an undeploy): the exception does not mark the transaction for rollback,
     * and {@code afterDelivery} commits unless a branch refuses.
     */
    private volatile boolean componentStopping;
    private volatile boolean commitOnBeanException;
    private final AtomicInteger beforeDeliveries = new AtomicInteger();
    private volatile int failingBeforeDelivery;
    private volatile Error afterDeliveryError;
    private volatile int transactionTimeoutSeconds;

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

    /** @param stopping whether the listener method fails before the bean, as during an undeploy */
    public void componentStopping(boolean stopping) {
        this.componentStopping = stopping;
    }

    /**
     * @param commit whether the container commits a delivery whose bean threw, as it does for an application
     *        exception declared {@code @ApplicationException(rollback = false)}
     */
    public void commitOnBeanException(boolean commit) {
        this.commitOnBeanException = commit;
    }

    /**
     * @param call which call of {@code beforeDelivery} fails (1 the first, counted over every endpoint of this
     *        factory), the way a container's does when it cannot begin the delivery's transaction; 0: none
     */
    public void failBeforeDelivery(int call) {
        this.failingBeforeDelivery = call;
    }

    /**
     * @param error what every {@code afterDelivery} throws once it has ended the transaction, whatever that ending
     *        threw (null: nothing), as a container whose completion hits an Error
     */
    public void failAfterDelivery(Error error) {
        this.afterDeliveryError = error;
    }

    /**
     * Gives each delivery's transaction a timeout, as WildFly's {@code transactions} subsystem does
     * ({@code default-timeout}): like Narayana (with {@code xaTransactionTimeoutEnabled}, its default), the
     * endpoint passes it to the reader's resource with {@code setTransactionTimeout} before starting its branch; and
     * a transaction that outlasted it is rolled back at {@code afterDelivery}, which throws, as after Narayana's
     * reaper rolled it back ({@code ARJUNA012117}) and WildFly's commit failed. The fake's reaper acts at the end of
     * the delivery, not while it runs.
     *
     * @param seconds the timeout, 0 for none
     */
    public void transactionTimeout(int seconds) {
        this.transactionTimeoutSeconds = seconds;
    }

    /**
     * Rolls back the transaction of the delivery this thread is making, from another thread and while the bean runs,
     * as Narayana's reaper does when the transaction times out (every branch ended with {@code TMFAIL}, then rolled
     * back); returns once it is done. The delivery's {@code afterDelivery} then throws, as WildFly's commit of a
     * transaction the reaper rolled back does ({@code ARJUNA012117}).
     *
     * @throws Exception if the rollback failed
     */
    public static void reaperRollback() throws Exception {
        Endpoint e = DELIVERING.get();
        if (e == null || e.xid == null) {
            throw new IllegalStateException("no transacted delivery on this thread");
        }
        java.util.concurrent.CompletableFuture.runAsync(() -> {
            try {
                e.rollbackAll();
            } catch (XAException x) {
                throw new java.util.concurrent.CompletionException(x);
            }
        }).get(30, java.util.concurrent.TimeUnit.SECONDS);
        e.reaped = true;
    }

    /** Marks the delivery in progress on this thread for rollback, like {@code MessageDrivenContext}. */
    public static void setRollbackOnly() {
        FakeTransactions.ROLLBACK_ONLY.set(Boolean.TRUE);
    }

    /**
     * Enlists a resource in the transaction of the delivery this thread is making, the way a JTA transaction manager
     * does (Narayana's {@code enlistResource}): a resource of the same resource manager as one already enlisted
     * ({@code isSameRM}) joins that branch ({@code TMJOIN}); another one starts a new branch.
     *
     * @param resource the resource, for instance an outbound managed connection's
     * @param name how {@link #xaCalls} names it
     * @throws XAException if its start fails
     */
    public static void enlist(XAResource resource, String name) throws XAException {
        Endpoint e = DELIVERING.get();
        if (e == null || e.xid == null) {
            throw new IllegalStateException("no transacted delivery on this thread");
        }
        e.enlist(resource, name);
    }

    @Override
    public MessageEndpoint createEndpoint(XAResource xaResource) throws UnavailableException {
        return createEndpoint(xaResource, 0);
    }

    @Override
    public MessageEndpoint createEndpoint(XAResource xaResource, long timeout) throws UnavailableException {
        liveEndpoints.incrementAndGet();
        createdEndpoints.incrementAndGet();
        creatingThreads.add(Thread.currentThread().getName());
        Endpoint state = new Endpoint(xaResource);
        return (MessageEndpoint) Proxy.newProxyInstance(getClass().getClassLoader(),
                new Class<?>[] {MessageEndpoint.class, listenerInterface}, (proxy, method, args) -> {
                    switch (method.getName()) {
                        case "beforeDelivery":
                            if (beforeDeliveries.incrementAndGet() == failingBeforeDelivery) {
                                throw new jakarta.resource.spi.UnavailableException(
                                        "simulated: the container cannot begin the delivery");
                            }
                            state.before();
                            return null;
                        case "afterDelivery":
                            try {
                                state.after();
                            } finally {
                                if (afterDeliveryError != null) {
                                    throw afterDeliveryError;
                                }
                            }
                            return null;
                        case "release":
                            liveEndpoints.decrementAndGet();
                            return null;
                        default:
                            if (method.getDeclaringClass() == Object.class) {
                                return method.invoke(state, args);
                            }
                            if (componentStopping) {
                                throw new IllegalStateException("the bean's component is stopping");
                            }
                            try {
                                return method.invoke(bean, args);
                            } catch (InvocationTargetException e) {
                                state.failed = !commitOnBeanException;
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
        private long begun;
        private boolean inDelivery;
        boolean failed;
        /** Whether {@link #reaperRollback} rolled the current transaction back. */
        private volatile boolean reaped;
        /** Resources enlisted by the bean: each with its branch, and whether it joined the reader's. */
        private final Map<String, XAResource> enlisted = new LinkedHashMap<>();
        private final Map<String, Xid> branches = new LinkedHashMap<>();
        private final Map<String, Boolean> joined = new LinkedHashMap<>();

        void enlist(XAResource resource, String name) throws XAException {
            boolean same = xa.isSameRM(resource);
            Xid branch = same ? xid : TestXid.next("fake-tx-branch");
            resource.start(branch, same ? XAResource.TMJOIN : XAResource.TMNOFLAGS);
            xaCalls.add(name + " start " + (same ? "TMJOIN" : "TMNOFLAGS"));
            enlisted.put(name, resource);
            branches.put(name, branch);
            joined.put(name, same);
        }

        /** Ends the enlisted resources, then commits every branch: in one phase if there is one, else in two. */
        private void commitAll() throws XAException {
            List<String> ownBranches = new ArrayList<>();
            for (Map.Entry<String, XAResource> r : enlisted.entrySet()) {
                r.getValue().end(branches.get(r.getKey()), XAResource.TMSUCCESS);
                if (!joined.get(r.getKey())) {
                    ownBranches.add(r.getKey());
                }
            }
            xa.end(xid, XAResource.TMSUCCESS);
            if (ownBranches.isEmpty()) {
                xaCalls.add("reader commit one-phase");
                xa.commit(xid, true);
                return;
            }
            xaCalls.add("reader prepare");
            boolean readOnly = xa.prepare(xid) == XAResource.XA_RDONLY;
            for (String name : ownBranches) {
                xaCalls.add(name + " prepare");
                if (enlisted.get(name).prepare(branches.get(name)) != XAResource.XA_RDONLY) {
                    xaCalls.add(name + " commit two-phase");
                    enlisted.get(name).commit(branches.get(name), false);
                }
            }
            if (!readOnly) {
                xaCalls.add("reader commit two-phase");
                xa.commit(xid, false);
            }
        }

        private void rollbackAll() throws XAException {
            for (Map.Entry<String, XAResource> r : enlisted.entrySet()) {
                r.getValue().end(branches.get(r.getKey()), XAResource.TMFAIL);
                if (!joined.get(r.getKey())) {
                    r.getValue().rollback(branches.get(r.getKey()));
                }
            }
            xa.end(xid, XAResource.TMFAIL);
            xa.rollback(xid);
        }

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
                int timeout = transactionTimeoutSeconds;
                if (timeout > 0) {
                    xa.setTransactionTimeout(timeout);
                }
                begun = System.nanoTime();
                xa.start(xid, XAResource.TMNOFLAGS);
                transactions.begin(xid);
                DELIVERING.set(this);
            }
        }

        void after() throws XAException, jakarta.resource.spi.LocalTransactionException {
            if (!inDelivery) {
                pairingErrors.incrementAndGet();
            }
            inDelivery = false;
            if (!transacted) {
                return;
            }
            transactions.end();
            DELIVERING.remove();
            boolean rollback = failed || FakeTransactions.ROLLBACK_ONLY.get();
            int timeout = transactionTimeoutSeconds;
            boolean timedOut = timeout > 0 && System.nanoTime() - begun > timeout * 1_000_000_000L;
            try {
                if (reaped) {
                    reaped = false;
                    rollbacks.incrementAndGet();
                    throw new jakarta.resource.spi.LocalTransactionException("simulated: ARJUNA012117 the reaper"
                            + " rolled the transaction back while the bean ran");
                }
                if (timedOut) {
                    rollbackAll();
                    rollbacks.incrementAndGet();
                    throw new jakarta.resource.spi.LocalTransactionException("simulated: ARJUNA012117 the"
                            + " transaction timed out after " + timeout + " s and was rolled back");
                }
                if (!enlisted.isEmpty()) {
                    if (rollback) {
                        rollbackAll();
                        rollbacks.incrementAndGet();
                    } else {
                        commitAll();
                        commits.incrementAndGet();
                    }
                } else if (rollback) {
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
                        refusedCommits.incrementAndGet();
                        throw e;
                    }
                }
            } finally {
                xid = null;
                enlisted.clear();
                branches.clear();
                joined.clear();
            }
        }
    }
}
