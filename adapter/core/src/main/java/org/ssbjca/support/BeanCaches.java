package org.ssbjca.support;

import java.beans.Introspector;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Removes classes from the JDK's bean introspection caches ({@link Introspector}), so that they do not keep an
 * undeployed adapter's class loader alive. The JDK keeps what it learnt of a class by soft references, which full
 * collections do not clear, partly in a cache per thread group; {@link Introspector#flushFromCaches} only clears the
 * calling thread's group. WildFly introspects the activation spec on its MSC threads (thread group "main") while it
 * activates beans and stops adapters on other pools, so this flushes from a short-lived thread in every thread group.
 */
public final class BeanCaches {

    private static final AdapterLog LOG = AdapterLog.of(BeanCaches.class);
    private static final long JOIN_MILLIS = 5_000;

    private BeanCaches() {
    }

    /**
     * Removes the classes, and their superclasses of the same class loader, from the introspection caches of every
     * thread group (introspecting a class caches what was learnt of each of its superclasses too).
     *
     * @param classes the classes
     */
    public static void forget(List<Class<?>> classes) {
        List<Class<?>> all = new ArrayList<>();
        for (Class<?> c : classes) {
            for (Class<?> k = c; k != null && k.getClassLoader() == c.getClassLoader(); k = k.getSuperclass()) {
                all.add(k);
            }
        }
        Runnable flush = () -> all.forEach(Introspector::flushFromCaches);
        flush.run();
        for (ThreadGroup group : otherGroups()) {
            Thread t = new Thread(group, flush, "ssb-jca introspection cache flush");
            t.setDaemon(true);
            t.setContextClassLoader(null);
            try {
                t.start();
                t.join(JOIN_MILLIS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            } catch (RuntimeException e) { // a destroyed group refuses new threads
                LOG.beanCacheNotFlushed(group.getName(), e.getMessage());
            }
        }
    }

    private static List<ThreadGroup> otherGroups() {
        ThreadGroup own = Thread.currentThread().getThreadGroup();
        ThreadGroup root = own;
        while (root.getParent() != null) {
            root = root.getParent();
        }
        ThreadGroup[] groups = new ThreadGroup[root.activeGroupCount() + 16];
        int n = root.enumerate(groups, true);
        List<ThreadGroup> result = new ArrayList<>(Arrays.asList(groups).subList(0, n));
        result.add(root);
        result.remove(own);
        return result;
    }
}
