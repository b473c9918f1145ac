package org.ssbjca.adapter.narayana;

import javax.transaction.xa.XAResource;
import org.jboss.tm.XAResourceWrapper;
import org.ssbjca.support.ForwardingXAResource;

/** An XA resource that tells WildFly's transaction manager the name of its database (see {@link NarayanaRecovery}). */
final class NamedXAResource extends ForwardingXAResource implements XAResourceWrapper {

    private static final String PRODUCT = "ssb-jca";

    private final String name;

    NamedXAResource(XAResource delegate, String name) {
        super(delegate);
        this.name = name;
    }

    @Override
    public XAResource getResource() {
        return delegate();
    }

    @Override
    public String getProductName() {
        return PRODUCT;
    }

    @Override
    public String getProductVersion() {
        Package p = NamedXAResource.class.getPackage();
        return p == null || p.getImplementationVersion() == null ? "" : p.getImplementationVersion();
    }

    @Override
    public String getJndiName() {
        return name;
    }

    @Override
    public String toString() {
        return name + " " + delegate();
    }
}
