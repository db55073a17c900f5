/** API keys (to be built). */
import type { PageProps } from '../../routes.js';
import { PageHeader } from '../../ui/page.js';

export default function Page(_props: PageProps) {
  return <PageHeader title="API keys" description="This page is being built." />;
}
