package org.ssbjca.support;

import java.util.Objects;
import javax.transaction.xa.XAException;
import javax.transaction.xa.XAResource;
import javax.transaction.xa.Xid;

/**
 * An XA resource that passes every call to another; subclasses change the calls they care about.
 * {@link #isSameRM} compares the innermost driver resources, so wrapping never changes how the transaction manager
 * groups branches.
 */
public abstract class ForwardingXAResource implements XAResource {

    private final XAResource delegate;

    /** @param delegate the resource calls go to */
    protected ForwardingXAResource(XAResource delegate) {
        this.delegate = Objects.requireNonNull(delegate, "delegate");
    }

    /** Returns the resource calls go to. */
    public XAResource delegate() {
        return delegate;
    }

    /**
     * Returns the driver's resource under every {@code ForwardingXAResource} layer.
     *
     * @param resource any XA resource
     */
    public static XAResource unwrap(XAResource resource) {
        XAResource r = resource;
        while (r instanceof ForwardingXAResource) {
            r = ((ForwardingXAResource) r).delegate;
        }
        return r;
    }

    @Override
    public void start(Xid xid, int flags) throws XAException {
        delegate.start(xid, flags);
    }

    @Override
    public void end(Xid xid, int flags) throws XAException {
        delegate.end(xid, flags);
    }

    @Override
    public int prepare(Xid xid) throws XAException {
        return delegate.prepare(xid);
    }

    @Override
    public void commit(Xid xid, boolean onePhase) throws XAException {
        delegate.commit(xid, onePhase);
    }

    @Override
    public void rollback(Xid xid) throws XAException {
        delegate.rollback(xid);
    }

    @Override
    public void forget(Xid xid) throws XAException {
        delegate.forget(xid);
    }

    @Override
    public Xid[] recover(int flag) throws XAException {
        return delegate.recover(flag);
    }

    @Override
    public boolean isSameRM(XAResource other) throws XAException {
        return unwrap(delegate).isSameRM(unwrap(other));
    }

    @Override
    public int getTransactionTimeout() throws XAException {
        return delegate.getTransactionTimeout();
    }

    @Override
    public boolean setTransactionTimeout(int seconds) throws XAException {
        return delegate.setTransactionTimeout(seconds);
    }
}
