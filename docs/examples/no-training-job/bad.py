# a helper module: it imports sagemaker but creates no job
import sagemaker


def upload(path):
    return sagemaker.Session().upload_data(path)
