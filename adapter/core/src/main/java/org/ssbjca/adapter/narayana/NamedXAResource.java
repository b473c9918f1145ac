package org.ssbjca.adapter.narayana;

import javax.transaction.xa.XAResource;
import org.jboss.tm.XAResourceWrapper;
import org.ssbjca.support.ForwardingXAResource;

/** An XA resource that tells WildFly's transaction manager the name of its database (see {@link NarayanaRecovery}). */
final class NamedXAResource extends ForwardingXAResource implements XAResourceWrapper {

    private static final String PRODUCT = "ssb-jca";
    /**
     * The adapter's version from its manifest, read once: the transaction manager asks at every enlistment.
     */
    private static final String VERSION = version();

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
        return VERSION;
    }

    private static String version() {
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
