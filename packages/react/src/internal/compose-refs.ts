import type { Ref, RefCallback } from 'react';

/** One ref callback that sets every given ref (a forwarded one and the component's own). */
export function composeRefs<T>(...refs: (Ref<T> | undefined)[]): RefCallback<T> {
  return (node) => {
    for (const ref of refs) {
      if (typeof ref === 'function') ref(node);
      else if (ref) ref.current = node;
    }
  };
}
