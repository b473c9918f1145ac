package org.ssbjca.fakes;

import jakarta.enterprise.inject.Instance;
import jakarta.enterprise.inject.spi.BeanManager;
import jakarta.enterprise.inject.spi.CDI;
import jakarta.enterprise.inject.spi.CDIProvider;
import jakarta.enterprise.util.TypeLiteral;
import java.lang.annotation.Annotation;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A deployment's CDI container as WildFly's CDI provider finds it: by the thread's context class loader. {@link
 * #install} gives the deployment of a class loader one bean (its {@code OpenTelemetry}); {@code CDI.current()} with
 * any other context class loader throws {@link IllegalStateException}, as for a deployment without CDI. Only
 * {@code select(Class)}, {@code isResolvable()} and {@code get()} are answered.
 */
public final class FakeCdi extends CDI<Object> {

    private static final Map<ClassLoader, Object> DEPLOYMENTS = new ConcurrentHashMap<>();
    private static final CDIProvider PROVIDER = () -> {
        Object bean = DEPLOYMENTS.get(Thread.currentThread().getContextClassLoader());
        if (bean == null) {
            throw new IllegalStateException("no CDI container for the context class loader");
        }
        return new FakeCdi(bean);
    };

    static {
        CDI.setCDIProvider(PROVIDER);
    }

    private final Object bean;

    private FakeCdi(Object bean) {
        this.bean = bean;
    }

    /** Gives the deployment of that class loader a container with one bean, until {@link #uninstall}. */
    public static void install(ClassLoader deployment, Object bean) {
        DEPLOYMENTS.put(deployment, bean);
    }

    /** Takes that deployment's container away. */
    public static void uninstall(ClassLoader deployment) {
        DEPLOYMENTS.remove(deployment);
    }

    @Override
    public BeanManager getBeanManager() {
        throw new UnsupportedOperationException();
    }

    @Override
    public Instance<Object> select(Annotation... qualifiers) {
        return this;
    }

    @Override
    @SuppressWarnings("unchecked")
    public <U> Instance<U> select(Class<U> type, Annotation... qualifiers) {
        return (Instance<U>) (Object) new FakeCdi(type.isInstance(bean) ? bean : null);
    }

    @Override
    public <U> Instance<U> select(TypeLiteral<U> type, Annotation... qualifiers) {
        throw new UnsupportedOperationException();
    }

    @Override
    public boolean isUnsatisfied() {
        return bean == null;
    }

    @Override
    public boolean isAmbiguous() {
        return false;
    }

    @Override
    public void destroy(Object instance) {
    }

    @Override
    public Handle<Object> getHandle() {
        throw new UnsupportedOperationException();
    }

    @Override
    public Iterable<? extends Handle<Object>> handles() {
        throw new UnsupportedOperationException();
    }

    @Override
    public Object get() {
        if (bean == null) {
            throw new IllegalStateException("unsatisfied");
        }
        return bean;
    }

    @Override
    public Iterator<Object> iterator() {
        return bean == null ? List.of().iterator() : List.of(bean).iterator();
    }
}
